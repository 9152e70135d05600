import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createTaskClient, type TaskClient } from '@task-service/sdk';
import type { FakeIcalFeeds, FakeTodo } from '../../contract-tests/support/fakes/ical.fake.js';
import type { Ledger } from './ledger.js';
import type { Traffic } from './traffic.js';

export const PASSWORD = 'correct horse battery staple';
/** The SDK's base URL: the instances' PUBLIC_URL; every request is sent to an instance on 127.0.0.1 (traffic.ts). */
export const PUBLIC_URL = 'http://127.0.0.1:1';

export interface World {
  traffic: Traffic;
  ledger: Ledger;
  feeds: FakeIcalFeeds;
  deadline: number;
  /** Actors stop starting requests once it is true. */
  over: () => boolean;
}

export interface Label {
  actor: string;
  account?: string;
  client?: string;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (from: number, to: number) => from + Math.random() * (to - from);

type Answer = { error?: unknown; response: Response } & Record<string, unknown>;

/** Waits what a 429 or a 503 asks; true when the caller should try again. */
async function waitIfAsked(result: Answer): Promise<boolean> {
  const status = result.response.status;
  if (status !== 429 && status !== 503) return false;
  const seconds = Number(result.response.headers.get('retry-after') ?? '1');
  await sleep(Math.min(Math.max(seconds, 1), 30) * 1000);
  return true;
}

export function sdk(world: World, label: Label, tokens: { accessToken?: string; refreshToken?: string; oauth?: { clientId: string } } = {}): TaskClient {
  return createTaskClient({ baseUrl: PUBLIC_URL, fetch: world.traffic.fetchFor(label), ...tokens });
}

/** Registers (or signs in to) an account, trying again through outages; its id. */
export async function openAccount(world: World, email: string): Promise<{ id: string; client: TaskClient; label: Label }> {
  const label: Label = { actor: 'signup' };
  const client = sdk(world, label);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const registered = await client.registerAccount({ email, password: PASSWORD });
      if (registered.error && registered.response.status === 409) await client.login({ email, password: PASSWORD });
      else if (registered.error && (await waitIfAsked(registered))) continue;
      const me = await client.getMe();
      if (me.data) {
        label.account = me.data.id;
        label.client = 'web';
        world.ledger.tally(me.data.id, email);
        return { id: me.data.id, client, label };
      }
      if (await waitIfAsked(me)) continue;
    } catch {
      // No answer: an instance went down; another is picked.
    }
    if (attempt > 20) throw new Error(`could not open the account ${email}`);
    await sleep(500);
  }
}

/** One create, tried again with the same Idempotency-Key until an answer says what happened. */
async function createOnce(world: World, client: TaskClient, account: string, title: string): Promise<{ id: string; version: number } | 'full' | undefined> {
  const key = randomUUID();
  // The same body on every attempt: a key sent again with another body is refused (422), not replayed.
  const body = { title, priority: (1 + Math.floor(Math.random() * 4)) as 1 | 2 | 3 | 4, labels: ['day'] };
  const tally = world.ledger.tally(account);
  // An attempt with no answer, or a 5xx, may have stored the task: a later refusal (a 401 once the
  // session is gone, say) then does not say that it did not.
  let mayHaveLanded = false;
  for (let attempt = 0; attempt < 8 && !world.over(); attempt += 1) {
    try {
      const result = await client.createTask(body, { idempotencyKey: key });
      if (result.data) {
        tally.created += 1;
        return { id: result.data.id, version: result.data.version };
      }
      if ((result.error as { code?: string } | undefined)?.code === 'QUOTA_EXCEEDED') return 'full';
      mayHaveLanded ||= result.response.status >= 500;
      if (!(await waitIfAsked(result))) {
        if (mayHaveLanded) tally.unknown += 1;
        return undefined;
      }
    } catch {
      mayHaveLanded = true;
      await sleep(1000);
    }
  }
  tally.unknown += 1;
  return undefined;
}

/** A person in the web app: reads the list, polls the change feed into a mirror, creates, edits with If-Match, completes, deletes. */
export async function webUser(world: World, account: string, client: TaskClient, name: string): Promise<void> {
  const mirror: Ledger['mirrors'][number] = { account, actor: name, tasks: new Map<string, number>(), cursor: undefined };
  mirror.catchUp = () => pollFeed(world, client, mirror, true);
  world.ledger.mirrors.push(mirror);
  while (!world.over()) {
    try {
      const roll = Math.random();
      if (roll < 0.3) await pollFeed(world, client, mirror);
      else if (roll < 0.45) await client.listTasks({ status: 'open', limit: 50 });
      else if (roll < 0.7) {
        const made = await createOnce(world, client, account, `${name} task ${Date.now()}`);
        if (made && made !== 'full') mirror.tasks.set(made.id, made.version);
      } else await changeOne(world, client, account, mirror, roll < 0.85 ? 'edit' : roll < 0.93 ? 'complete' : 'delete');
    } catch {
      // No answer; recorded by the traffic.
    }
    await sleep(jitter(400, 1400));
  }
}

export async function pollFeed(world: World, client: TaskClient, mirror: Ledger['mirrors'][number], toTheEnd = false): Promise<void> {
  for (let page = 0; page < 50; page += 1) {
    const result = await client.listTaskChanges(mirror.cursor ? { cursor: mirror.cursor, limit: 100 } : { limit: 100 });
    if (!result.data) {
      if (result.response.status === 410) {
        mirror.cursor = undefined;
        mirror.tasks.clear();
        continue;
      }
      if ((toTheEnd || !world.over()) && (await waitIfAsked(result)) && toTheEnd) continue;
      return;
    }
    for (const change of result.data.changes) {
      if (change.kind === 'upserted') mirror.tasks.set(change.task.id, change.task.version);
      else mirror.tasks.delete(change.taskId);
    }
    mirror.cursor = result.data.nextCursor;
    if (!result.data.hasMore) return;
  }
}

async function changeOne(world: World, client: TaskClient, account: string, mirror: Ledger['mirrors'][number], what: 'edit' | 'complete' | 'delete'): Promise<void> {
  const ids = [...mirror.tasks.keys()];
  if (ids.length === 0) return;
  const id = ids[Math.floor(Math.random() * ids.length)]!;
  const version = mirror.tasks.get(id)!;
  if (what === 'delete') {
    try {
      const result = await client.deleteTask(id, { ifMatch: version });
      if (result.response.status === 204) {
        world.ledger.tally(account).deleted += 1;
        mirror.tasks.delete(id);
      } else if (result.response.status === 404) mirror.tasks.delete(id);
      else {
        if (result.response.status >= 500) world.ledger.tally(account).unknown += 1;
        await waitIfAsked(result);
      }
    } catch {
      world.ledger.tally(account).unknown += 1;
    }
    return;
  }
  const body = what === 'edit' ? { title: `edited ${Date.now()}` } : { status: 'completed' as const };
  const result = await client.updateTask(id, body, { ifMatch: version });
  if (result.data) {
    world.ledger.acceptedConditionalWrite(id, String(version));
    mirror.tasks.set(id, result.data.version);
  } else if (result.response.status === 404) mirror.tasks.delete(id);
  else if (result.response.status === 412) {
    const fresh = await client.getTask(id);
    if (fresh.data) mirror.tasks.set(id, fresh.data.version);
  } else await waitIfAsked(result);
}

/** A script on an API token: steady reads and writes; `runaway` fires as fast as it may and waits out each 429. */
export async function tokenScript(world: World, owner: TaskClient, account: string, name: string, runaway: boolean): Promise<void> {
  const made = await owner.createApiToken({ name, scopes: ['tasks:read', 'tasks:write'] });
  if (!made.data) throw new Error(`no API token for ${name}: ${made.response.status}`);
  const client = sdk(world, { actor: runaway ? 'runaway-script' : 'script', account, client: `token:${made.data.id}` }, { accessToken: made.data.token });
  const work = async () => {
    while (!world.over()) {
      try {
        const result = runaway || Math.random() < 0.7 ? await client.listTasks({ limit: 20 }) : await createAndDelete(world, client, account);
        if (result && result.response.status === 429) {
          world.ledger.retryAfterHonoured.told += 1;
          await waitIfAsked(result);
          world.ledger.retryAfterHonoured.waited += 1;
        }
      } catch {
        await sleep(500);
      }
      if (!runaway) await sleep(jitter(500, 1500));
    }
  };
  await Promise.all(Array.from({ length: runaway ? 3 : 1 }, work));
}

async function createAndDelete(world: World, client: TaskClient, account: string) {
  const made = await createOnce(world, client, account, 'script task');
  if (!made || made === 'full') return undefined;
  const result = await client.deleteTask(made.id).catch((err: unknown) => {
    world.ledger.tally(account).unknown += 1;
    throw err;
  });
  if (result.response.status === 204) world.ledger.tally(account).deleted += 1;
  else if (result.response.status >= 500) world.ledger.tally(account).unknown += 1;
  return result;
}

/** A burst of taskctl commands now and then. */
export async function taskctlBursts(world: World, owner: TaskClient, account: string): Promise<void> {
  const made = await owner.createApiToken({ name: 'taskctl', scopes: ['tasks:read', 'tasks:write', 'connectors:read'] });
  if (!made.data) throw new Error(`no API token for taskctl: ${made.response.status}`);
  const client = sdk(world, { actor: 'taskctl', account, client: `token:${made.data.id}` }, { accessToken: made.data.token });
  while (!world.over()) {
    try {
      await Promise.all([client.getMe(), client.listTasks({ limit: 10 }), client.getUsage(), client.listConnectorAccounts()]);
      await createOnce(world, client, account, 'from the terminal');
    } catch {
      // recorded
    }
    await sleep(jitter(4000, 9000));
  }
}

/** Tokens of a third-party app the person consented to, through the consent page with PKCE (RFC 7636), for `resource` when named. */
async function consentedTokens(world: World, email: string, account: string, name: string, resource?: string) {
  const send = world.traffic.fetchFor({ actor: 'oauth-app', account });
  const redirect = 'https://app.example.com/callback';
  const registered = await send(`${PUBLIC_URL}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirect] }),
  });
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const scope = 'tasks:read tasks:write connectors:read';
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope, ...(resource ? { resource } : {}) });
  const page = await send(`${PUBLIC_URL}/oauth/authorize?${query}`);
  const html = await page.text();
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const consent = await send(`${PUBLIC_URL}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ ...fields, email, password: PASSWORD, decision: 'allow' }),
  });
  const code = new URL(consent.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`${name}: no code from the consent page (${consent.status})`);
  const exchanged = await send(`${PUBLIC_URL}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, redirect_uri: redirect, code, code_verifier: verifier, ...(resource ? { resource } : {}) }),
  });
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
  return { clientId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** A third-party app on its own client fence, refreshing at the token endpoint (the SDK's OAuth mode). */
export async function oauthApp(world: World, email: string, account: string, name: string): Promise<void> {
  const { clientId, accessToken, refreshToken } = await consentedTokens(world, email, account, name);
  const client = sdk(world, { actor: 'oauth-app', account, client: `app:${clientId}` }, { accessToken, refreshToken, oauth: { clientId } });
  while (!world.over()) {
    try {
      const result = Math.random() < 0.6 ? await client.listTasks({ limit: 25 }) : await client.getMe();
      await waitIfAsked(result);
      if (Math.random() < 0.2) await createOnce(world, client, account, `${name} note`);
    } catch {
      // recorded
    }
    await sleep(jitter(700, 2000));
  }
}

/** An MCP host (an app with a token for the MCP resource): tool calls and resource reads over JSON-RPC at /mcp. */
export async function mcpHost(world: World, email: string, account: string, name: string): Promise<void> {
  const resource = `${PUBLIC_URL}/mcp`;
  const tokens = await consentedTokens(world, email, account, name, resource);
  let accessToken = tokens.accessToken;
  let refreshToken = tokens.refreshToken;
  const label = { actor: 'mcp', account, client: `app:${tokens.clientId}` };
  let rpc = 0;
  const call = (method: string, params: Record<string, unknown>) =>
    world.traffic.fetchFor({ ...label, op: () => `MCP ${method}${typeof params.name === 'string' ? ` ${params.name}` : ''}` })(resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method, params }),
    });
  const refresh = async () => {
    const answer = await world.traffic.fetchFor(label)(`${PUBLIC_URL}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: tokens.clientId, refresh_token: refreshToken, resource }),
    });
    if (answer.ok) ({ access_token: accessToken, refresh_token: refreshToken } = (await answer.json()) as { access_token: string; refresh_token: string });
  };
  while (!world.over()) {
    try {
      const roll = Math.random();
      let answer: Response;
      if (roll < 0.4) answer = await call('tools/call', { name: 'list_tasks', arguments: { limit: 10 } });
      else if (roll < 0.6) {
        answer = await call('tools/call', { name: 'create_task', arguments: { title: 'asked by the assistant' } });
        const text = answer.status === 200 ? await answer.clone().text() : '';
        if (answer.status === 200 && !text.includes('"isError":true')) world.ledger.tally(account).created += 1;
        else if (answer.status >= 500) world.ledger.tally(account).unknown += 1;
      } else if (roll < 0.8) answer = await call('resources/list', {});
      else answer = await call('tools/call', { name: 'get_usage', arguments: {} });
      if (answer.status === 401) await refresh();
    } catch {
      world.ledger.tally(account).unknown += 1;
    }
    await sleep(jitter(800, 2500));
  }
}

/** Sync jobs against the local iCalendar fake: connect, sync, watch the job to its end, add to the feed, again. */
export async function syncer(world: World, client: TaskClient, account: string, path: string, todos: number): Promise<void> {
  const items: FakeTodo[] = Array.from({ length: todos }, (_, i) => ({ uid: `${path}-${i}@day`, summary: `calendar item ${i}` }));
  world.feeds.setFeed(path, items);
  const connected = await client.connectAccount('ical', { url: world.feeds.url(path) } as never);
  if (!connected.data) throw new Error(`could not connect ${path}: ${connected.response.status} ${JSON.stringify(connected.error)}`);
  const connection = connected.data.id;
  while (!world.over()) {
    let started;
    try {
      started = await client.startSync(connection);
    } catch {
      // No answer: a job may have started all the same.
      world.ledger.tally(account).unknown += items.length;
    }
    try {
      if (started?.data) {
        let job = started.data;
        while ((job.status === 'queued' || job.status === 'running') && Date.now() < world.deadline + 30_000) {
          await sleep(500);
          // A fault on the way (an instance killed, a store cut) does not end the job: read it again.
          const read = await client.getSyncJob(job.id).catch(() => undefined);
          if (read?.data) job = read.data;
          else if (read) await waitIfAsked(read);
        }
        world.ledger.syncs.push({ account, fetched: job.fetched, created: job.created, updated: job.updated, unchanged: job.unchanged, droppedOverQuota: job.droppedOverQuota, status: job.status });
        if (job.status === 'succeeded') world.ledger.tally(account).created += job.created;
        else world.ledger.tally(account).unknown += Math.max(job.fetched, items.length);
      } else if (started) await waitIfAsked(started);
    } catch {
      // recorded
    }
    for (let i = 0; i < 5; i += 1) items.push({ uid: `${path}-${items.length}@day`, summary: `calendar item ${items.length}` });
    world.feeds.setFeed(path, items);
    await sleep(jitter(8000, 15000));
  }
}

/** Someone guessing one account's password, eight at once, and sending requests no client would. */
export async function attacker(world: World, email: string): Promise<void> {
  const send = world.traffic.fetchFor({ actor: 'attacker' });
  const guess = async () => {
    const t0 = Date.now();
    try {
      const answer = await send(`${PUBLIC_URL}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: `guess-${randomUUID()}` }) });
      world.ledger.guesses.push({ t0, t1: Date.now(), status: answer.status });
    } catch {
      world.ledger.guesses.push({ t0, t1: Date.now(), status: 0 });
    }
  };
  const malformed: [string, RequestInit][] = [
    ['/tasks', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: '{"title":' }],
    ['/tasks?limit=abc', { headers: { authorization: 'Bearer x.y.z' } }],
    ['/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'x'.repeat(5000), password: 1 }) }],
    ['/auth/register', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }],
    ['/tasks/%00', { headers: { authorization: 'Bearer x' } }],
  ];
  while (!world.over()) {
    await Promise.all(Array.from({ length: 8 }, guess));
    const [path, init] = malformed[Math.floor(Math.random() * malformed.length)]!;
    await send(`${PUBLIC_URL}${path}`, init).catch(() => undefined);
    await sleep(jitter(1500, 3000));
  }
}
