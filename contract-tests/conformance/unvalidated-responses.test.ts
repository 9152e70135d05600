// In production the answers are not run through the response validator (OPENAPI_VALIDATE_RESPONSES is
// off: docs/benchmarks.md#response-validation), and src/http/operations.ts writes a JSON answer itself
// instead of through Express's res.json. The same requests to a server of each kind, on one database,
// must get the same answers, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let validated: TestServer;
let production: TestServer;
let accessToken: string;
let taskId: string;

beforeAll(async () => {
  validated = await startServer();
  production = await startServer({ database: validated.database, env: { OPENAPI_VALIDATE_RESPONSES: 'false' } });
  accessToken = (await signedInClient(validated)).tokens.accessToken;
  const made = await call(validated, '/tasks', { method: 'POST', body: JSON.stringify({ title: 'Café ☕ 日本語 — “quoted” \\ slash', labels: ['naïve'] }) });
  taskId = ((await made.json()) as { id: string }).id;
});
afterAll(async () => {
  await production?.stop();
  await validated?.stop();
});

function call(server: TestServer, path: string, init: RequestInit = {}) {
  return fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...init.headers },
  });
}

async function answerOf(response: Response) {
  const body = Buffer.from(await response.arrayBuffer());
  const header = (name: string) => response.headers.get(name);
  return { status: response.status, type: header('content-type'), length: header('content-length'), etag: header('etag'), body: body.toString('utf8'), bytes: body.length };
}

describe('answers written without the response validator are the ones written with it', () => {
  it.each([
    ['GET /me', '/me', {}],
    ['GET /tasks', '/tasks?limit=5', {}],
    ['GET /tasks/{taskId}', '/tasks/:id', {}],
    ['HEAD /tasks/{taskId}', '/tasks/:id', { method: 'HEAD' }],
    ['GET /tasks/{taskId} with a matching If-None-Match (304)', '/tasks/:id', { headers: { 'if-none-match': '"1"' } }],
    ['a refusal (404)', '/tasks/no-such-task', {}],
  ] as [string, string, RequestInit][])('%s', async (_name, path, init) => {
    const url = path.replace(':id', taskId);
    const [expected, actual] = [await answerOf(await call(validated, url, init)), await answerOf(await call(production, url, init))];
    expect(actual).toEqual(expected);
    if (expected.status === 200 && init.method !== 'HEAD') {
      expect(actual.type).toBe('application/json; charset=utf-8');
      expect(Number(actual.length)).toBe(actual.bytes);
    }
  });

  it('a create answers 201 with its Location, its ETag and the whole task, its length in bytes', async () => {
    const made = await answerOf(await call(production, '/tasks', { method: 'POST', body: JSON.stringify({ title: 'Ünïcödé ✓' }) }));
    expect(made).toMatchObject({ status: 201, type: 'application/json; charset=utf-8', etag: '"1"' });
    expect(Number(made.length)).toBe(made.bytes);
    expect(JSON.parse(made.body)).toMatchObject({ title: 'Ünïcödé ✓', version: 1 });
  });
});
