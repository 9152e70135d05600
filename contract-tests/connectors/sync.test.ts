import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTasks, syncAndWait, waitForJob } from '../support/connectors.js';
import { manyIssues, startFakeGithub, type FakeGithub } from '../support/fakes/github.fake.js';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
let github: FakeGithub;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, github, feeds] = await Promise.all([
    startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }),
    startFakeGithub(),
    startFakeIcalFeeds(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), github?.close(), feeds?.close()]);
});

async function connectGithub(issues: ReturnType<typeof manyIssues>, login: string) {
  const session = await signedInClient(server);
  const token = `ghp_${randomUUID().replaceAll('-', '')}`;
  github.addAccount(token, { id: Math.floor(Math.random() * 1e9), login }, issues);
  const account = dataOf(await session.client.connectAccount('github', { token, baseUrl: github.baseUrl }));
  const issueRequests = () => github.requests.filter((request) => request.headers.authorization === `Bearer ${token}` && request.path.startsWith('/issues'));
  return { ...session, token, account, issueRequests };
}

describe('syncing GitHub issues', () => {
  it('follows Link rel="next" over 3 pages: 250 issues become 250 tasks, the pull request is left out', async () => {
    const issues = [...manyIssues(249), { number: 250, title: 'Closed one', state: 'closed' as const, closedAt: '2024-05-01T08:00:00Z', milestoneDueOn: '2024-06-01T07:00:00Z' }];
    const { client, account, issueRequests } = await connectGithub([...issues, { number: 251, title: 'A PR', pullRequest: true }], 'pager');

    const job = await syncAndWait(client, account.id);
    expect(job).toMatchObject({ status: 'succeeded', fetched: 250, created: 250, updated: 0, unchanged: 0, droppedOverQuota: 0 });
    expect(issueRequests().map((request) => new URL(request.path, 'http://x').searchParams.get('page'))).toEqual([null, '2', '3']);
    const tasks = await allTasks(client);
    expect(tasks).toHaveLength(250);
    expect(tasks.find((task) => task.title === 'Closed one')).toMatchObject({
      status: 'completed',
      completedAt: '2024-05-01T08:00:00.000Z',
      dueAt: '2024-06-01T07:00:00.000Z',
      source: { connectorAccountId: account.id, connectorType: 'github', externalId: '1000250', url: 'https://github.com/octo-org/octo-repo/issues/250' },
    });
    expect(tasks.some((task) => task.title === 'A PR')).toBe(false);

    const again = await syncAndWait(client, account.id);
    expect(again).toMatchObject({ status: 'succeeded', fetched: 250, created: 0, updated: 0, unchanged: 250 });
  });

  it('fails the job with the time to retry when GitHub answers with its rate limit, and asks only once', async () => {
    const { client, token, account, issueRequests } = await connectGithub(manyIssues(5), 'limited');
    github.exhaustRateLimit(token, 1800);
    const job = await syncAndWait(client, account.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^GitHub's rate limit for this token is used up \(answered 403\); retry after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(in 1[78]\d\d s\)\. Stopped without retrying\.$/);
    expect(issueRequests()).toHaveLength(1);
    expect(await allTasks(client)).toEqual([]);
  });

  it('a provider that never answers: the job fails with a clear error after 10 s, and meanwhile the same job is returned', async () => {
    const { client, token, account } = await connectGithub(manyIssues(5), 'silent');
    github.hangIssues(token);
    const started = Date.now();
    const first = dataOf(await client.startSync(account.id));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await client.startSync(account.id);
    expect(second.response.status).toBe(202);
    expect(second.response.headers.get('location')).toBe(`/sync-jobs/${first.id}`);
    expect(second.data).toMatchObject({ id: first.id, status: 'running' });

    const job = await waitForJob(client, first.id, 20_000);
    const elapsed = Date.now() - started;
    expect(job.status).toBe('failed');
    expect(job.error).toBe(`GitHub could not be reached: ${github.baseUrl}/issues did not answer within 10 s.`);
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(14_000);
    github.hangIssues(token, false);
    const retried = await syncAndWait(client, account.id);
    expect(retried).toMatchObject({ status: 'succeeded', created: 5 });
    expect(retried.id).not.toBe(first.id);
  });
});

describe('sync jobs', () => {
  it('parallel starts share one job; the account lists its 20 most recent jobs, newest first', async () => {
    const { client, token, account } = await connectGithub(manyIssues(3), 'jobs');
    github.delayIssues(token, 1_500);
    const started = await Promise.all(Array.from({ length: 5 }, () => client.startSync(account.id)));
    expect(new Set(started.map((response) => dataOf(response).id)).size).toBe(1);
    await waitForJob(client, dataOf(started[0]!).id);

    const knex = server.database.knex();
    const owner = await knex('connector_accounts').where('id', account.id).first();
    const old = Date.now() - 60_000;
    await knex('sync_jobs').insert(
      Array.from({ length: 22 }, (_, i) => ({
        id: randomUUID(),
        account_id: owner.account_id,
        connector_account_id: account.id,
        status: 'succeeded',
        created_at: old + i,
        started_at: old + i,
        finished_at: old + i,
      })),
    );
    const { data } = await client.listSyncJobs(account.id);
    expect(data!.items).toHaveLength(20);
    expect(data!.items[0]!.id).toBe(dataOf(started[0]!).id);
    const times = data!.items.map((job) => Date.parse(job.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('synced tasks are found by their words, and found by their new words after the feed changes them', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/findable.ics', [
      { uid: 'a@feed', summary: 'Dentist appointment', description: 'Bring the X-ray' },
      { uid: 'b@feed', summary: 'Passport renewal' },
    ]);
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url('/findable.ics') }));
    expect(await syncAndWait(client, account.id)).toMatchObject({ status: 'succeeded', created: 2 });
    const titles = async (q: string) => dataOf(await client.listTasks({ q })).items.map((task) => task.title);
    expect(await titles('dent ray')).toEqual(['Dentist appointment']);
    feeds.setFeed('/findable.ics', [
      { uid: 'a@feed', summary: 'Orthodontist appointment', description: 'Bring the X-ray' },
      { uid: 'b@feed', summary: 'Passport renewal' },
    ]);
    expect(await syncAndWait(client, account.id)).toMatchObject({ status: 'succeeded', updated: 1 });
    expect(await titles('dent')).toEqual([]);
    expect(await titles('ortho')).toEqual(['Orthodontist appointment']);
  });

  it('jobs a crashed process left running or queued are finished after the restart, never left running', async () => {
    const { client, tokens } = await signedInClient(server);
    feeds.setFeed('/crash-a.ics', manyTodos(4));
    feeds.setFeed('/crash-b.ics', manyTodos(2, 'Other'));
    const a = dataOf(await client.connectAccount('ical', { url: feeds.url('/crash-a.ics') }));
    const b = dataOf(await client.connectAccount('ical', { url: feeds.url('/crash-b.ics') }));
    const knex = server.database.knex();
    const accountId = (await knex('connector_accounts').where('id', a.id).first()).account_id;
    const now = Date.now();
    const left = [
      { id: randomUUID(), connector_account_id: a.id, status: 'running', runner_id: randomUUID(), lease_until: now - 1_000, attempts: 1, started_at: now - 40_000 },
      { id: randomUUID(), connector_account_id: b.id, status: 'queued', runner_id: null, lease_until: null, attempts: 0, started_at: null },
    ];
    await knex('sync_jobs').insert(left.map((job) => ({ ...job, account_id: accountId, created_at: now - 50_000 })));

    await server.restart();
    const restarted = server.client({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
    const [jobA, jobB] = await Promise.all(left.map((job) => waitForJob(restarted, job.id, 10_000)));
    expect(jobA).toMatchObject({ status: 'succeeded', fetched: 4, created: 4 });
    expect(jobB).toMatchObject({ status: 'succeeded', fetched: 2, created: 2 });
    const unfinished = await knex('sync_jobs').whereIn('connector_account_id', [a.id, b.id]).whereIn('status', ['queued', 'running']);
    expect(unfinished).toEqual([]);
  });
});
