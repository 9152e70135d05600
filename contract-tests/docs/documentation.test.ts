// What the README and the production guide promise, checked against a started server: the README's
// curl quick start runs as written (twice: the second run meets an existing account), and every
// metric the server exports is named in docs/production.md.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCodeBlockUnder, serviceMetricNames } from '../../scripts/docs-links.js';
import { startServer, type TestServer } from '../support/server.js';

const root = new URL('../../', import.meta.url).pathname;
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The quick start as a reader pastes it into bash, pointed at this server instead of port 3000. */
function runQuickStart(): string[] {
  const block = firstCodeBlockUnder(read('README.md'), 'Quick start with curl', 'sh');
  expect(block, 'the README has a sh block under "Quick start with curl"').toBeDefined();
  const script = block!.replace(/^API=http:\/\/localhost:3000$/m, `API=${server.baseUrl}`);
  expect(script).toContain(`API=${server.baseUrl}`);
  const run = spawnSync('bash', ['-e', '-c', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => line.trim() !== '');
}

describe("the README's curl quick start", () => {
  it('registers, signs in, makes an API token, creates a task and lists it, as written', async () => {
    const [created, listed] = runQuickStart().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(created).toMatchObject({ title: 'Read the guides', status: 'open', priority: 2, labels: ['onboarding'] });
    const items = (listed as { items: { id: string; title: string }[] }).items;
    expect(items.map((item) => item.id)).toContain(created!.id);
  });

  it('runs again for the same person (the account exists), adding a second task', async () => {
    const [created, listed] = runQuickStart().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(created).toMatchObject({ title: 'Read the guides' });
    expect((listed as { items: unknown[] }).items).toHaveLength(2);
  });
});

describe('the production guide', () => {
  it('names every metric the server exports at /metrics', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    const exported = serviceMetricNames(await response.text());
    expect(exported.length).toBeGreaterThan(5);
    const guide = read('docs/production.md');
    expect(exported.filter((name) => !guide.includes(`\`${name}\``))).toEqual([]);
  });
});
