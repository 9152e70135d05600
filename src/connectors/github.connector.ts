import LinkHeader from 'http-link-header';
import { z } from 'zod';
import { errors } from '../platform/errors.js';
import type { ExternalTask } from '../tasks/tasks.component.js';
import {
  credentialsShapeError,
  fromOutboundError,
  ProviderError,
  type Connection,
  type ConnectorDefinition,
  type ConnectorTools,
} from './connector-registry.js';
import type { OutboundResponse } from './safe-fetch.js';

export const GITHUB_API = 'https://api.github.com';
// 1,000 pages of 100 is ten times the largest task cap we expect; past it something loops.
const MAX_PAGES = 1_000;

/**
 * Issues assigned to the user (GET /issues?filter=assigned&state=all), across every repository the
 * token sees. Pull requests come back from that endpoint too and are left out: they are reviews of
 * code, not tasks of the user's own.
 */
export const githubConnector: ConnectorDefinition = {
  type: 'github',
  name: 'GitHub',
  open: (input, tools) => openGithub(readCredentials(input), tools),
};

interface GithubCredentials {
  token: string;
  baseUrl: string;
}

const credentialsSchema = z
  .object({
    token: z.string({ error: 'is required for a github account' }).min(1).max(1024),
    baseUrl: z.string().max(2048).optional(),
  })
  .strict();

function readCredentials(input: unknown): GithubCredentials {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw credentialsShapeError('github', parsed.error, '{ token, baseUrl? }');
  const baseUrl = parsed.data.baseUrl === undefined ? GITHUB_API : normaliseBaseUrl(parsed.data.baseUrl);
  return { token: parsed.data.token, baseUrl };
}

function normaliseBaseUrl(text: string): string {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw errors.validation(
      [{ path: '/body/baseUrl', message: 'must be an http(s) API root without user info, query or fragment' }],
      'These are not github credentials: baseUrl must be the API root, e.g. https://github.example.com/api/v3.',
    );
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function openGithub(credentials: GithubCredentials, tools: ConnectorTools): Connection {
  const base = new URL(credentials.baseUrl);
  const isPublicGithub = credentials.baseUrl === GITHUB_API;

  const get = async (url: string, signal?: AbortSignal): Promise<OutboundResponse> => {
    try {
      return await tools.fetch.get(url, {
        signal,
        headers: {
          authorization: `Bearer ${credentials.token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
        },
      });
    } catch (err) {
      throw fromOutboundError(err, 'baseUrl', 'GitHub');
    }
  };

  return {
    credentials,
    async identify(signal) {
      const response = await get(`${credentials.baseUrl}/user`, signal);
      if (response.status === 404) {
        throw new ProviderError('refused', `There is no GitHub API at ${credentials.baseUrl} (GET /user answered 404).`);
      }
      checkStatus(response);
      const user = userSchema.safeParse(parseJson(response));
      if (!user.success) throw new ProviderError('unavailable', 'GitHub answered GET /user with something that is not a user.');
      // Enterprise servers number their users on their own: the host keeps the identities apart.
      const externalId = isPublicGithub ? String(user.data.id) : `${user.data.id}@${base.host}`;
      return { externalId, displayName: user.data.login };
    },
    async *items(signal) {
      let next: string | undefined = `${credentials.baseUrl}/issues?filter=assigned&state=all&per_page=100`;
      for (let page = 0; next; page++) {
        if (page >= MAX_PAGES) throw new ProviderError('unavailable', `GitHub kept paginating past ${MAX_PAGES} pages; stopped.`);
        const response = await get(next, signal);
        checkStatus(response);
        const issues = z.array(z.unknown()).safeParse(parseJson(response));
        if (!issues.success) throw new ProviderError('unavailable', 'GitHub answered GET /issues with something that is not a list of issues.');
        yield issues.data.flatMap(toTask);
        next = nextPage(response.headers.link, response.url, base);
      }
    },
  };
}

const userSchema = z.object({ id: z.number().int(), login: z.string().min(1) });

const issueSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  state: z.string(),
  closed_at: z.string().nullish(),
  html_url: z.string().nullish(),
  pull_request: z.unknown().optional(),
  milestone: z.object({ due_on: z.string().nullish() }).nullish(),
});

/** An issue as a task; pull requests and entries of an unknown shape are left out. */
export function toTask(entry: unknown): ExternalTask[] {
  const issue = issueSchema.safeParse(entry);
  if (!issue.success || issue.data.pull_request !== undefined) return [];
  const { id, title, body, state, closed_at: closedAt, html_url: htmlUrl, milestone } = issue.data;
  const completed = state === 'closed';
  return [
    {
      externalId: String(id),
      title,
      notes: body ?? null,
      status: completed ? 'completed' : 'open',
      completedAt: completed ? epochMs(closedAt) : null,
      dueAt: epochMs(milestone?.due_on),
      url: htmlUrl ?? null,
    },
  ];
}

function epochMs(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
}

function parseJson(response: OutboundResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8')) as unknown;
  } catch {
    throw new ProviderError('unavailable', `GitHub answered ${response.status} with a body that is not JSON.`);
  }
}

/** 2xx passes; rate limits, refusals and server errors become provider errors with what GitHub said. */
function checkStatus(response: OutboundResponse): void {
  const { status, headers } = response;
  if (status >= 200 && status < 300) return;
  const limited = rateLimitWait(status, headers);
  if (limited !== null) {
    const until = new Date(Date.now() + limited * 1000).toISOString();
    throw new ProviderError(
      'rate-limited',
      `GitHub's rate limit for this token is used up (answered ${status}); retry after ${until} (in ${limited} s). Stopped without retrying.`,
    );
  }
  // Our words and GitHub's status only, never its body: a provider may quote the credentials back.
  if (status === 401) throw new ProviderError('refused', 'GitHub refused the token (401).');
  if (status === 403) throw new ProviderError('refused', 'GitHub denied access (403).');
  throw new ProviderError('unavailable', `GitHub answered ${status}.`);
}

/**
 * Seconds to wait when the answer is a rate limit, else null. GitHub signals its primary limit with
 * 403/429 and `x-ratelimit-remaining: 0` (+ `x-ratelimit-reset`, epoch seconds), and secondary
 * limits with 403/429 and `retry-after`.
 */
export function rateLimitWait(status: number, headers: Record<string, string>, now = Date.now()): number | null {
  if (status !== 403 && status !== 429) return null;
  const retryAfter = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter)) return Math.max(1, Math.ceil(retryAfter));
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    return Number.isFinite(reset) ? Math.max(1, Math.ceil(reset - now / 1000)) : 60;
  }
  return status === 429 ? 60 : null;
}


/** The `rel="next"` target of a Link header, only on the API's own origin: the token never goes elsewhere. */
export function nextPage(link: string | undefined, current: URL, base: URL): string | undefined {
  if (!link) return undefined;
  const target = parsedLink(link)?.rel('next')[0]?.uri;
  if (!target) return undefined;
  const next = new URL(target, current);
  if (next.origin !== base.origin) {
    throw new ProviderError('unavailable', `GitHub's next page points outside ${base.origin}; stopped rather than send the token there.`);
  }
  return next.href;
}

/** A header that is not a Link list names no next page: the sync ends with the pages it has. */
function parsedLink(header: string): LinkHeader | undefined {
  try {
    return LinkHeader.parse(header);
  } catch {
    return undefined;
  }
}
