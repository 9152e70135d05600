import { describe, expect, it } from 'vitest';
import { createTaskClient } from './client.js';
import { TaskApiError } from './errors.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const task = (id: string) => ({
  id,
  title: `task ${id}`,
  notes: null,
  status: 'open',
  priority: 3,
  dueAt: null,
  labels: [],
  completedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  source: null,
});

describe('createTaskClient', () => {
  it('reports a 429 as a TaskApiError flagged rate-limited, with the server-sent wait', async () => {
    const client = createTaskClient({
      baseUrl: 'http://api.test',
      accessToken: 'a',
      fetch: async () =>
        json(429, { statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.' }, { 'retry-after': '17' }),
    });
    const result = await client.listTasks();
    expect(result.error).toBeInstanceOf(TaskApiError);
    expect(result.error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', isRateLimited: true, retryAfterSeconds: 17, message: 'Slow down.' });
  });

  it('leaves retryAfterSeconds absent when the server sent no Retry-After', async () => {
    const client = createTaskClient({
      baseUrl: 'http://api.test',
      fetch: async () => json(429, { statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.' }),
    });
    const { error } = await client.listTasks();
    expect(error?.isRateLimited).toBe(true);
    expect(error?.retryAfterSeconds).toBeUndefined();
  });

  it('sends the access token and walks every page of listTasks with listAllTasks', async () => {
    const seen: string[] = [];
    const pages: Record<string, { items: unknown[]; nextCursor: string | null }> = {
      '': { items: [task('1'), task('2')], nextCursor: 'c1' },
      c1: { items: [task('3')], nextCursor: 'c2' },
      c2: { items: [], nextCursor: null },
    };
    const client = createTaskClient({
      baseUrl: 'http://api.test/',
      accessToken: 'token-1',
      fetch: async (request) => {
        const url = new URL(request.url);
        seen.push(`${request.headers.get('authorization')} ${url.pathname}${url.search}`);
        return json(200, pages[url.searchParams.get('cursor') ?? '']);
      },
    });
    const ids: string[] = [];
    for await (const item of client.listAllTasks({ limit: 2 })) ids.push(item.id);
    expect(ids).toEqual(['1', '2', '3']);
    expect(seen).toEqual(['Bearer token-1 /tasks?limit=2', 'Bearer token-1 /tasks?limit=2&cursor=c1', 'Bearer token-1 /tasks?limit=2&cursor=c2']);
  });

  it('makes listAllTasks throw the TaskApiError of a failed page', async () => {
    const client = createTaskClient({
      baseUrl: 'http://api.test',
      fetch: async () => json(401, { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Sign in first.' }),
    });
    const walk = async () => {
      for await (const _ of client.listAllTasks()) void _;
    };
    await expect(walk()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
