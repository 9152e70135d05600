// A third-party app as a new user writes it, compiled by sdk/src/package.test.ts with the strictest
// options (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess): it must compile as it is.
import {
  createTaskClient,
  OAuthFlowError,
  TaskApiError,
  type ConnectorAccount,
  type IssuedTokens,
  type SyncJob,
  type Task,
  type TaskCreate,
  type TaskStatus,
  type TokenPair,
  type Usage,
} from '@task-service/sdk';

declare const stored: { accessToken?: string; refreshToken?: string } | undefined;
declare function save(tokens: IssuedTokens): void;
declare function show(...values: unknown[]): void;

export async function main(): Promise<void> {
  // Values that may be undefined are passed as they are, under exactOptionalPropertyTypes.
  const client = createTaskClient({
    baseUrl: 'http://127.0.0.1:3000',
    oauth: { clientId: 'my-app', resource: undefined },
    accessToken: stored?.accessToken,
    refreshToken: stored?.refreshToken,
    onTokens: save,
    retry: { maxAttempts: 3, maxDelaySeconds: 30 },
    timeoutMs: 10_000,
  });

  const { url, state, codeVerifier } = await client.createAuthorization({ redirectUri: 'http://127.0.0.1:8765/callback', scope: 'tasks:read' });
  void url;
  try {
    const exchanged = await client.exchangeCode({ callbackUrl: 'http://127.0.0.1:8765/callback?code=x&state=y', state, codeVerifier });
    if (exchanged.error) throw exchanged.error;
  } catch (err) {
    if (err instanceof OAuthFlowError) show(err.code);
  }

  const cursor: string | undefined = undefined;
  const page = await client.listTasks({ status: 'open', limit: 20, cursor }, { signal: AbortSignal.timeout(5_000) });
  if (page.error) {
    const error = page.error;
    if (error instanceof TaskApiError && error.isRateLimited) show(error.retryAfterSeconds ?? 60);
    return;
  }
  const first: Task | undefined = page.data.items[0];
  const status: TaskStatus | undefined = first?.status;
  const priority: 1 | 2 | 3 | 4 | undefined = first?.priority;
  show(status, priority);

  const draft: TaskCreate = { title: 'Write the report', priority: 2 };
  // @ts-expect-error priority is 1 | 2 | 3 | 4, not any number
  const wrong: TaskCreate = { title: 'x', priority: 5 };
  void wrong;
  const idempotencyKey: string | undefined = undefined;
  await client.createTask(draft, { idempotencyKey, timeoutMs: 2_000 });

  const usage: Usage | undefined = (await client.getUsage()).data;
  const accounts: ConnectorAccount[] = (await client.listConnectorAccounts()).data?.items ?? [];
  const jobs: SyncJob[] = accounts[0] ? ((await client.listSyncJobs(accounts[0].id)).data?.items ?? []) : [];
  const pair: TokenPair | undefined = (await client.login({ email: 'ada@example.com', password: 'secret' })).data;
  show(usage, jobs.length, pair?.expiresIn);
  for await (const task of client.listAllTasks({ status: 'all' })) show(task.title);

  // A plain read is data or an error; a conditional one may also be "not modified" (keep the copy held).
  if (!first) return;
  const plain = await client.getTask(first.id);
  if (plain.error) return;
  let held: { task: Task; etag: string | undefined } = { task: plain.data, etag: plain.etag };
  const read = await client.getTask(first.id, { ifNoneMatch: held.etag ?? held.task.version });
  if (read.notModified) show('unchanged', read.etag);
  else if (read.error) show(read.error.code);
  else held = { task: read.data, etag: read.etag };
  await client.updateTask(first.id, { title: 'Renamed' }, { ifMatch: held.etag });
}
