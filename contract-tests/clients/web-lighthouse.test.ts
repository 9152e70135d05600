import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signedInClient, type TestServer } from '../support/server.js';
import { freePort, startServerOnFreePort } from './web-app.support.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const ROOT = new URL('../../', import.meta.url).pathname;
/** The build as `npm start` makes it: vitest sets NODE_ENV=test, which Vite would keep (and ship the libraries' development code). */
const PRODUCTION_BUILD = { ...process.env, NODE_ENV: 'production' };
/** One run is enough: the scores do not depend on the database engine, and a Lighthouse run costs half a minute. */
const ONCE = process.env.TEST_DATABASE !== 'postgres';

const title = !CHROMIUM
  ? 'Lighthouse on the web app: SKIPPED, no chromium installed (apt-get install chromium, or set CHROMIUM_PATH)'
  : ONCE
    ? 'Lighthouse 12.2.3 (mobile preset) on the signed-in Tasks page with 100 tasks, and the first load\'s JavaScript'
    : 'Lighthouse on the web app: run by the SQLite project only (the page is the same on PostgreSQL)';

describe.skipIf(!CHROMIUM || !ONCE)(title, () => {
  let server: TestServer;
  let dist: string;
  let profile: string;
  let context: BrowserContext;
  let debuggingPort: number;

  beforeAll(async () => {
    // Its own build folder: the other browser test builds web/dist at the same time.
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    profile = mkdtempSync(join(tmpdir(), 'web-lighthouse-profile-'));
    const built = spawnSync('npm', ['run', 'build', '--silent', '-w', 'web', '--', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, encoding: 'utf8', env: PRODUCTION_BUILD });
    if (built.status !== 0) throw new Error(`web/ did not build:\n${built.stdout}${built.stderr}`);
    server = await startServerOnFreePort(() => ({ WEB_APP_DIR: dist }));
    debuggingPort = await freePort();
    // The browser's default profile (a persistent context), so the tab Lighthouse opens shares the signed-in session.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM!,
      args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debuggingPort}`],
    });
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await server?.stop();
    for (const dir of [dist, profile]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('first load: under 40 kB of JavaScript, gzipped', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/app\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
    process.stdout.write(`web app: first load ${(gzipped / 1024).toFixed(1)} kB of JavaScript gzipped (${scripts.join(', ')})\n`);
    expect(gzipped).toBeLessThan(40 * 1024);
  });

  it('performance >= 95, accessibility 100, best practices 100', async () => {
    const { email, client } = await signedInClient(server);
    for (let n = 1; n <= 100; n += 1) {
      const made = await client.createTask({ title: `Task ${n}: ${n % 3 === 0 ? 'call the bank about the mortgage' : 'water the plants'}`, priority: ((n % 4) + 1) as 1 | 2 | 3 | 4, labels: n % 2 ? ['home'] : [] });
      expect(made.error).toBeUndefined();
    }
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(`${server.baseUrl}/app/`);
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('checkbox', { name: /^Done: Task 100:/ }).waitFor();

    // The default config is the mobile preset (a mid-range phone, simulated slow 4G and CPU).
    const result = await lighthouse(
      `${server.baseUrl}/app/#/tasks`,
      { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'], disableStorageReset: true },
    );
    const categories = result!.lhr.categories;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const failing = Object.values(result!.lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
      .map((audit) => `${audit.id}: ${audit.displayValue ?? audit.score}`);
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(
      (id) => `${id} ${result!.lhr.audits[id]?.displayValue ?? '?'}`,
    );
    process.stdout.write(
      `web app: Lighthouse ${result!.lhr.lighthouseVersion} mobile: performance ${score('performance')}, accessibility ${score('accessibility')}, best practices ${score('best-practices')} (${metrics.join(', ')})\n`,
    );
    expect(await tab.getByRole('checkbox', { name: /^Done: Task \d+:/ }).count()).toBe(100);
    expect({ accessibility: score('accessibility'), bestPractices: score('best-practices'), failing }).toMatchObject({ accessibility: 100, bestPractices: 100 });
    expect(score('performance'), failing.join('; ')).toBeGreaterThanOrEqual(95);
  }, 180_000);
});
