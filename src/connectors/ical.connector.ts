import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { z } from 'zod';
import { errors } from '../platform/errors.js';
import { isRfc3339Instant } from '../platform/time.js';
import type { ExternalTask } from '../tasks/tasks.component.js';
import {
  credentialsShapeError,
  fromOutboundError,
  ProviderError,
  splitIntoPages,
  type Connection,
  type ConnectorDefinition,
  type ConnectorTools,
} from './connector-registry.js';
import { OutboundError, redactUrl } from './safe-fetch.js';

/** VTODO items of an iCalendar feed (CalDAV servers, reminders exports). */
export const icalConnector: ConnectorDefinition = {
  type: 'ical',
  name: 'iCalendar feed',
  open: (input, tools) => openFeed(readCredentials(input), tools),
};

const PAGE_SIZE = 500;
// tasks.external_id holds 1024 characters; longer UIDs (rare) are replaced by their digest.
const EXTERNAL_ID_MAX = 1024;
const IDENTITY_MAX = 2048;

interface IcalCredentials {
  url: string;
}

const credentialsSchema = z.object({ url: z.string({ error: 'is required for an ical account' }).min(1).max(2048) }).strict();

function readCredentials(input: unknown): IcalCredentials {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw credentialsShapeError('ical', parsed.error, '{ url }');
  return { url: normaliseFeedUrl(parsed.data.url).href };
}

/** `webcal://` and `webcals://` are https; the fragment never reaches a server, so it goes. */
export function normaliseFeedUrl(text: string): URL {
  const url = URL.parse(text.trim().replace(/^webcals?:\/\//i, 'https://'));
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) {
    throw errors.validation(
      [{ path: '/body/url', message: 'must be an http, https or webcal address' }],
      'These are not ical credentials: url must be an http, https or webcal feed address.',
    );
  }
  url.hash = '';
  return url;
}

/**
 * The feed's identity: scheme, host and path as the URL parser normalises them (lower-case scheme
 * and host, no default port, no fragment). User info and query often carry the feed's secret, so
 * they are not shown: when present, a keyed digest of them is appended as `#access-<16 hex>`. Two
 * feeds that differ only in their query stay apart; a feed whose secret changed counts as a new one.
 */
export function feedIdentity(url: URL, digest: ConnectorTools['digest']): string {
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  const access = url.username || url.password || url.search ? `#access-${digest('ical-feed-access', `${url.username}\n${url.search}`).slice(0, 16)}` : '';
  const identity = `${base}${access}`;
  // connector_accounts.external_id holds 2048 characters: a longer address is named by its digest.
  return identity.length <= IDENTITY_MAX ? identity : `${url.protocol}//${url.host}/#feed-${digest('ical-feed', url.href).slice(0, 32)}`;
}

function openFeed(credentials: IcalCredentials, tools: ConnectorTools): Connection {
  const url = new URL(credentials.url);
  const shown = redactUrl(url);
  const load = async (signal?: AbortSignal) => parseFeed(await download(url, tools, signal), shown);
  return {
    credentials,
    async identify(signal) {
      const calendar = await load(signal);
      const name = calendar.getFirstPropertyValue('x-wr-calname');
      const displayName = (typeof name === 'string' && name.trim() ? name.trim() : `${url.host}${url.pathname}`).slice(0, 200);
      return { externalId: feedIdentity(url, tools.digest), displayName };
    },
    async *items(signal) {
      const calendar = await load(signal);
      yield* splitIntoPages(calendar.getAllSubcomponents('vtodo').flatMap(toTask), PAGE_SIZE);
    },
  };
}

async function download(url: URL, tools: ConnectorTools, signal?: AbortSignal): Promise<string> {
  const headers: Record<string, string> = { accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1' };
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  let response;
  try {
    response = await tools.fetch.get(url, { headers, signal });
  } catch (err) {
    if (err instanceof OutboundError && err.failure === 'too-large') {
      throw new ProviderError('refused', `The feed is too large: ${err.message}`);
    }
    throw fromOutboundError(err, 'url', 'The feed');
  }
  const { status } = response;
  const shown = redactUrl(url);
  if (status === 401 || status === 403) throw new ProviderError('refused', `The feed refused access (${shown} answered ${status}).`);
  if (status >= 400 && status < 500) throw new ProviderError('refused', `There is no feed at ${shown} (answered ${status}).`);
  if (status < 200 || status >= 300) throw new ProviderError('unavailable', `The feed could not be read: ${shown} answered ${status}.`);
  return response.body.toString('utf8').replace(/^\uFEFF/, '');
}

function parseFeed(text: string, shown: string): ICAL.Component {
  const notACalendar = () => new ProviderError('refused', `${shown} did not serve an iCalendar feed.`);
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch {
    throw notACalendar();
  }
  // One top-level component parses to it; several to a list of them: the first VCALENDAR counts.
  const roots = Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : (parsed as unknown[]);
  const root = roots.find((candidate) => Array.isArray(candidate) && candidate[0] === 'vcalendar') as unknown[] | undefined;
  if (!root) throw notACalendar();
  return new ICAL.Component(root);
}

/**
 * A VTODO as a task; overrides of single occurrences (RECURRENCE-ID), items without UID and items
 * ical.js cannot read (it throws on values that do not fit their type) are left out, so one broken
 * item does not stop the rest of the feed.
 */
export function toTask(todo: ICAL.Component): ExternalTask[] {
  try {
    return readTask(todo);
  } catch {
    return [];
  }
}

function readTask(todo: ICAL.Component): ExternalTask[] {
  const uid = textValue(todo, 'uid');
  if (!uid || todo.hasProperty('recurrence-id')) return [];
  const completedAt = timeValue(todo, 'completed');
  const status = textValue(todo, 'status')?.toUpperCase();
  const percent = Number(todo.getFirstPropertyValue('percent-complete'));
  // A COMPLETED whose time cannot be read still says the item is done.
  const completed = todo.hasProperty('completed') || status === 'COMPLETED' || status === 'CANCELLED' || percent === 100;
  return [
    {
      externalId: uid.length <= EXTERNAL_ID_MAX ? uid : `uid-sha256:${createHash('sha256').update(uid).digest('hex')}`,
      title: textValue(todo, 'summary') ?? '',
      notes: textValue(todo, 'description') ?? null,
      status: completed ? 'completed' : 'open',
      completedAt: completed ? completedAt : null,
      dueAt: timeValue(todo, 'due'),
      url: textValue(todo, 'url') ?? null,
    },
  ];
}

function textValue(todo: ICAL.Component, name: string): string | undefined {
  const value = todo.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Epoch ms of a DATE or DATE-TIME property, or null when it cannot be read (e.g. `DUE:2024`) or
 * shown, so the item keeps everything else. Times with a TZID the feed defines are shifted by that
 * zone's offset; dates, floating times and unknown zones are read as UTC so the answer does not
 * depend on the server's own time zone.
 */
function timeValue(todo: ICAL.Component, name: string): number | null {
  let value: unknown;
  try {
    value = todo.getFirstPropertyValue(name);
  } catch {
    return null;
  }
  if (!(value instanceof ICAL.Time)) return null;
  const zone = value.zone;
  const zoned = !value.isDate && zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating';
  // Date.UTC (and ical.js's toUnixTime, built on it) would read years 0–99 as 1900–1999.
  const time = new Date(0);
  time.setUTCFullYear(value.year, value.month - 1, value.day);
  if (!value.isDate) time.setUTCHours(value.hour, value.minute, value.second - (zoned ? value.utcOffset() : 0));
  const ms = time.getTime();
  return isRfc3339Instant(ms) ? ms : null;
}
