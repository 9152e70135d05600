import { describe, expect, it } from 'vitest';
import { createTaskClient } from './client.js';
import { DEFAULT_RETRY_AFTER_SECONDS, withRetry } from './retry.js';

type Answer = { status: number; retryAfter?: string; body?: unknown };

/** A transport that answers from a script and records what it was sent. */
function scriptedServer(answers: Answer[]) {
  const seen: { method: string; url: string; body: string }[] = [];
  const send = async (request: Request) => {
    seen.push({ method: request.method, url: request.url, body: await request.text() });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    const headers = new Headers({ 'content-type': 'application/json' });
    if (answer.retryAfter !== undefined) headers.set('retry-after', answer.retryAfter);
    const body = answer.status === 204 ? null : JSON.stringify(answer.body ?? { statusCode: answer.status, code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.' });
    return new Response(body, { status: answer.status, headers });
  };
  return { send, seen };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const limited = (retryAfter?: string): Answer => ({ status: 429, retryAfter });
const ok: Answer = { status: 200, body: { items: [], nextCursor: null } };

describe('the opt-in retry on 429', () => {
  it('waits the Retry-After seconds, plus jitter of at most 20%, then sends the same request again', async () => {
    const server = scriptedServer([limited('7'), ok]);
    const { waits, sleep } = recordingSleep();
    const send = withRetry(server.send, { sleep, random: () => 0.5 });
    const response = await send(new Request('http://api.test/tasks', { method: 'POST', body: '{"title":"a"}' }));
    expect(response.status).toBe(200);
    expect(waits).toEqual([7000 * 1.1]);
    expect(server.seen).toEqual([
      { method: 'POST', url: 'http://api.test/tasks', body: '{"title":"a"}' },
      { method: 'POST', url: 'http://api.test/tasks', body: '{"title":"a"}' },
    ]);
  });

  it('never waits less than Retry-After, whatever the jitter draws', async () => {
    for (const draw of [0, 0.999]) {
      const { waits, sleep } = recordingSleep();
      await withRetry(scriptedServer([limited('12'), ok]).send, { sleep, random: () => draw })(new Request('http://api.test/tasks'));
      expect(waits[0]).toBeGreaterThanOrEqual(12_000);
      expect(waits[0]).toBeLessThanOrEqual(12_000 * 1.2);
    }
  });

  it('waits 60 seconds when the 429 carries no Retry-After', async () => {
    const { waits, sleep } = recordingSleep();
    await withRetry(scriptedServer([limited(), ok]).send, { sleep, random: () => 0 })(new Request('http://api.test/tasks'));
    expect(DEFAULT_RETRY_AFTER_SECONDS).toBe(60);
    expect(waits).toEqual([60_000]);
  });

  it('waits at least a second when told Retry-After: 0 or a date already past: never a tight loop', async () => {
    const { waits, sleep } = recordingSleep();
    const server = scriptedServer([limited('0'), limited(new Date(Date.now() - 60_000).toUTCString()), ok]);
    await withRetry(server.send, { sleep, random: () => 0 })(new Request('http://api.test/tasks'));
    expect(waits).toEqual([1000, 1000]);
  });

  it('stops after maxAttempts in all and hands the last 429 back, readable', async () => {
    const server = scriptedServer([limited('2')]);
    const { waits, sleep } = recordingSleep();
    const response = await withRetry(server.send, { maxAttempts: 4, sleep, random: () => 0 })(new Request('http://api.test/tasks'));
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(server.seen).toHaveLength(4);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it('hands the 429 back at once when the server asks for longer than maxDelaySeconds, instead of retrying too early', async () => {
    const server = scriptedServer([limited('3600'), ok]);
    const { waits, sleep } = recordingSleep();
    const response = await withRetry(server.send, { maxDelaySeconds: 120, sleep })(new Request('http://api.test/tasks'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3600');
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('passes every answer other than 429 and 503 through untouched, without waiting', async () => {
    for (const status of [200, 204, 401, 500, 502]) {
      const server = scriptedServer([{ status, retryAfter: '5' }]);
      const { waits, sleep } = recordingSleep();
      const response = await withRetry(server.send, { sleep })(new Request('http://api.test/tasks'));
      expect(response.status).toBe(status);
      expect(server.seen).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('stops waiting and rejects when the caller aborts the request', async () => {
    const server = scriptedServer([limited('30'), ok]);
    const controller = new AbortController();
    const send = withRetry(server.send, {});
    const pending = send(new Request('http://api.test/tasks', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user gave up')), 20);
    await expect(pending).rejects.toThrow('user gave up');
    expect(server.seen).toHaveLength(1);
  });
});

describe('the client package with retry', () => {
  it('retries listTasks on 429 only when asked to, and reports the 429 as isRateLimited otherwise', async () => {
    const plain = createTaskClient({ baseUrl: 'http://api.test', fetch: scriptedServer([limited('5'), ok]).send });
    const first = await plain.listTasks();
    expect(first.error?.isRateLimited).toBe(true);
    expect(first.error?.retryAfterSeconds).toBe(5);

    const { waits, sleep } = recordingSleep();
    const retrying = createTaskClient({ baseUrl: 'http://api.test', fetch: scriptedServer([limited('5'), ok]).send, retry: { sleep, random: () => 0 } });
    const second = await retrying.listTasks();
    expect(second.error).toBeUndefined();
    expect(second.data).toEqual({ items: [], nextCursor: null });
    expect(waits).toEqual([5000]);
  });
});

describe('the opt-in retry on 503 and network errors', () => {
  it('retries a 503 only when it says how long to wait', async () => {
    const { waits, sleep } = recordingSleep();
    const told = scriptedServer([{ status: 503, retryAfter: '4' }, ok]);
    expect((await withRetry(told.send, { sleep, random: () => 0 })(new Request('http://api.test/tasks'))).status).toBe(200);
    expect(waits).toEqual([4000]);
    const untold = scriptedServer([{ status: 503 }, ok]);
    expect((await withRetry(untold.send, { sleep })(new Request('http://api.test/tasks'))).status).toBe(503);
    expect(untold.seen).toHaveLength(1);
  });

  it('after a network error backs off 1 s then 2 s (plus jitter) for idempotent requests, then throws the last error', async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    };
    await expect(withRetry(failing, { sleep, random: () => 0.5 })(new Request('http://api.test/tasks'))).rejects.toThrow('fetch failed');
    expect(calls).toBe(3);
    expect(waits).toEqual([1100, 2200]);
  });

  it('does not repeat a POST after a network error unless it carries an Idempotency-Key', async () => {
    const { sleep } = recordingSleep();
    let calls = 0;
    const failOnce = async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response('{}', { status: 201 });
    };
    const send = withRetry(failOnce, { sleep });
    await expect(send(new Request('http://api.test/tasks', { method: 'POST', body: '{}' }))).rejects.toThrow('fetch failed');
    calls = 0;
    const keyed = new Request('http://api.test/tasks', { method: 'POST', body: '{}', headers: { 'idempotency-key': 'k1' } });
    expect((await send(keyed)).status).toBe(201);
    expect(calls).toBe(2);
  });

  it('never retries its own abort', async () => {
    const controller = new AbortController();
    let calls = 0;
    const aborting = async () => {
      calls += 1;
      controller.abort();
      throw controller.signal.reason;
    };
    await expect(withRetry(aborting, {})(new Request('http://api.test/tasks', { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(1);
  });
});
