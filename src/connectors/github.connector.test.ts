import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyIssues, startFakeGithub, type FakeGithub } from '../../contract-tests/support/fakes/github.fake.js';
import { startHttpFake } from '../../contract-tests/support/fakes/http-fake.js';
import { AppError } from '../platform/errors.js';
import { ProviderError, type ConnectorTools } from './connector-registry.js';
import { githubConnector, nextPage, rateLimitWait, toTask } from './github.connector.js';
import { createSafeFetch } from './safe-fetch.js';

let github: FakeGithub;
let tools: ConnectorTools;
beforeAll(async () => {
  github = await startFakeGithub();
  tools = { fetch: createSafeFetch({ allowPrivateNetworks: true }), digest: (purpose, value) => `${purpose}:${value}` };
});
afterAll(async () => {
  await tools.fetch.close();
  await github.close();
});

async function collect(iterable: AsyncIterable<unknown[]>): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  for await (const page of iterable) pages.push(page);
  return pages;
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => undefined, (error: unknown) => error);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('the github connector', () => {
  it('identifies the token owner by GitHub user id (host-qualified on Enterprise) and login', async () => {
    github.addAccount('tok-identify', { id: 583231, login: 'octocat' });
    const connection = githubConnector.open({ token: 'tok-identify', baseUrl: `${github.baseUrl}/` }, tools);
    expect(await connection.identify()).toEqual({ externalId: `583231@127.0.0.1:${github.port}`, displayName: 'octocat' });
    const request = github.requests.at(-1)!;
    expect(request.path).toBe('/user');
    expect(request.headers.authorization).toBe('Bearer tok-identify');
    expect(request.headers.accept).toBe('application/vnd.github+json');
    expect(request.headers['x-github-api-version']).toBe('2022-11-28');
    expect(request.headers['user-agent']).toMatch(/task-service/);
  });

  it('reads a refused token as refused, with GitHub\'s status only', async () => {
    const err = await providerError(githubConnector.open({ token: 'nobody', baseUrl: github.baseUrl }, tools).identify());
    expect(err.failure).toBe('refused');
    expect(err.message).toBe('GitHub refused the token (401).');
  });

  it('never echoes what a provider wrote in its error body (it may quote the token back)', async () => {
    const echoing = await startHttpFake((req, res) => {
      const status = req.url === '/user' ? 401 : 403;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `you sent ${req.headers.authorization}` }));
    });
    try {
      const err = await providerError(githubConnector.open({ token: 'ghp_secret123', baseUrl: echoing.origin }, tools).identify());
      expect(err.message).not.toContain('ghp_secret123');
      expect(err.message).not.toContain('you sent');
      expect(err.message).toBe('GitHub refused the token (401).');
    } finally {
      await echoing.close();
    }
  });

  it('follows Link rel="next" through every page of assigned issues and leaves pull requests out', async () => {
    const issues = [...manyIssues(250), { number: 251, title: 'A pull request', pullRequest: true }];
    github.addAccount('tok-pages', { id: 2, login: 'pager' }, issues);
    const pages = await collect(githubConnector.open({ token: 'tok-pages', baseUrl: github.baseUrl }, tools).items(new AbortController().signal));
    expect(pages.map((page) => page.length)).toEqual([100, 100, 50]);
    const paths = github.requests.filter((r) => r.headers.authorization === 'Bearer tok-pages').map((r) => r.path);
    expect(paths).toEqual([
      '/issues?filter=assigned&state=all&per_page=100',
      '/issues?filter=assigned&state=all&per_page=100&page=2',
      '/issues?filter=assigned&state=all&per_page=100&page=3',
    ]);
  });

  it('fails on a rate-limit answer with the time to retry, without asking again', async () => {
    github.addAccount('tok-limited', { id: 3, login: 'busy' }, manyIssues(5));
    github.exhaustRateLimit('tok-limited', 120);
    const before = github.requests.length;
    const err = await providerError(collect(githubConnector.open({ token: 'tok-limited', baseUrl: github.baseUrl }, tools).items(new AbortController().signal)));
    expect(err.failure).toBe('rate-limited');
    expect(err.message).toMatch(/rate limit .* used up \(answered 403\); retry after \d{4}-\d\d-\d\dT[\d:.]+Z \(in 1[12]\d s\)/);
    expect(github.requests.length - before).toBe(1);
  });

  it('maps an issue to a task: closed means completed at closed_at, milestone due_on is the due date', () => {
    const [task] = toTask({
      id: 1,
      title: 'Fix the bug',
      body: 'Steps',
      state: 'closed',
      closed_at: '2024-03-04T05:06:07Z',
      html_url: 'https://github.com/o/r/issues/1',
      milestone: { due_on: '2024-04-01T07:00:00Z' },
    });
    expect(task).toEqual({
      externalId: '1',
      title: 'Fix the bug',
      notes: 'Steps',
      status: 'completed',
      completedAt: Date.parse('2024-03-04T05:06:07Z'),
      dueAt: Date.parse('2024-04-01T07:00:00Z'),
      url: 'https://github.com/o/r/issues/1',
    });
    expect(toTask({ id: 2, title: 'Open', body: null, state: 'open', closed_at: null })[0]).toMatchObject({ status: 'open', completedAt: null, notes: null });
    expect(toTask({ id: 3, title: 'PR', state: 'open', pull_request: { url: 'x' } })).toEqual([]);
    expect(toTask({ title: 'no id' })).toEqual([]);
  });

  it('reads rate-limit answers from retry-after or x-ratelimit-reset, and nothing else as one', () => {
    const now = 1_700_000_000_000;
    expect(rateLimitWait(429, { 'retry-after': '30' }, now)).toBe(30);
    expect(rateLimitWait(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 90) }, now)).toBe(90);
    expect(rateLimitWait(403, { 'x-ratelimit-remaining': '12' }, now)).toBeNull();
    expect(rateLimitWait(500, { 'retry-after': '30' }, now)).toBeNull();
  });

  it('refuses to follow a next page on another origin, so the token stays with the API', () => {
    const base = new URL('https://api.github.com');
    const current = new URL('https://api.github.com/issues?page=1');
    expect(nextPage('<https://api.github.com/issues?page=2>; rel="next", <https://api.github.com/issues?page=9>; rel="last"', current, base)).toBe(
      'https://api.github.com/issues?page=2',
    );
    expect(nextPage('<https://api.github.com/issues?page=1>; rel="prev"', current, base)).toBeUndefined();
    expect(() => nextPage('<https://evil.example.com/issues?page=2>; rel="next"', current, base)).toThrow(/outside https:\/\/api.github.com/);
  });

  it('reads a Link header whose quoted parameters or targets hold commas', () => {
    const base = new URL('https://api.github.com');
    const current = new URL('https://api.github.com/issues?page=1');
    expect(nextPage('<https://api.github.com/issues?page=2>; title="issues, page 2"; rel="next", <https://api.github.com/issues?page=9>; rel="last"', current, base)).toBe(
      'https://api.github.com/issues?page=2',
    );
    expect(nextPage('<https://api.github.com/issues?labels=a,b&page=2>; rel="next"', current, base)).toBe('https://api.github.com/issues?labels=a,b&page=2');
    expect(nextPage('<https://api.github.com/issues?page=9>; rel="last next"', current, base)).toBe('https://api.github.com/issues?page=9');
    expect(() => nextPage('<https://evil.example.com/issues?page=2>; title="a, b"; rel="next"', current, base)).toThrow(/outside https:\/\/api.github.com/);
  });

  it('answers a body of the other type with 400 naming the fields', () => {
    const err = (() => {
      try {
        githubConnector.open({ url: 'https://example.com/feed.ics' }, tools);
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(400);
    expect(err.extras.details).toEqual(
      expect.arrayContaining([
        { path: '/body/token', message: 'is required for a github account' },
        { path: '/body/url', message: 'is not a field of a github account' },
      ]),
    );
    expect(() => githubConnector.open({ token: 't', baseUrl: 'ftp://x' }, tools)).toThrow(AppError);
  });
});
