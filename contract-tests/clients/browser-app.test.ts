import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example's server is plain JavaScript (no types): it is what a reader runs.
import { serveBrowserApp } from '../../examples/browser-app/serve.mjs';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

/** Debian's chromium (installed by .ci/run), or CHROMIUM_PATH. */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const ARTEFACTS = new URL('../../test-artifacts/', import.meta.url);

const title = CHROMIUM
  ? 'the browser example (examples/browser-app) in a real chromium'
  : 'the browser example in a real browser: SKIPPED, no chromium installed (apt-get install chromium, or set CHROMIUM_PATH)';

describe.skipIf(!CHROMIUM)(title, () => {
  let server: TestServer;
  let page: { url: string; close: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    // The page on one loopback origin, the service on another that lets only that origin in.
    page = (await serveBrowserApp()) as typeof page;
    server = await startServer({ env: { CORS_ALLOWED_ORIGINS: page.url } });
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--disable-gpu'] });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await page?.close();
  });

  it('signs in with PKCE through the consent page, lists the tasks and shows the budget from X-RateLimit-Remaining', async () => {
    const { email, client } = await signedInClient(server);
    for (const [title, priority] of [['Water the plants', 2], ['File the taxes', 1]] as const) {
      expect((await client.createTask({ title, priority })).error).toBeUndefined();
    }
    const context = await browser.newContext();
    const tab = await context.newPage();
    const failures: string[] = [];
    tab.on('pageerror', (err) => failures.push(err.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });

    await tab.goto(`${page.url}/?api=${encodeURIComponent(server.baseUrl)}`);
    await tab.locator('#sign-in').click();
    // The service's own page, on its origin: sign in and allow.
    await tab.waitForURL(`${server.baseUrl}/oauth/authorize?**`);
    await tab.locator('#email').fill(email);
    await tab.locator('#password').fill(PASSWORD);
    await tab.locator('button[value=allow]').click();

    await tab.waitForURL(`${page.url}/`);
    await expect.poll(() => tab.locator('#tasks li').allTextContents(), { timeout: 10_000 }).toEqual(
      expect.arrayContaining(['P2Water the plants', 'P1File the taxes']),
    );
    const budget = await tab.locator('#budget').textContent();
    expect(budget).toMatch(/^Budget: \d+ of \d+ this minute$/);
    // The number is the service's: a call of ours right after sees one fewer in the same account budget.
    const shown = Number(/Budget: (\d+)/.exec(budget!)![1]);
    const ours = Number((await client.listTasks()).response.headers.get('x-ratelimit-remaining'));
    expect(ours).toBeLessThan(shown);
    expect(ours).toBeGreaterThanOrEqual(shown - 5);
    expect(failures).toEqual([]);

    mkdirSync(ARTEFACTS, { recursive: true });
    await tab.screenshot({ path: new URL('browser-app.png', ARTEFACTS).pathname, fullPage: true });
    await context.close();
  }, 60_000);
});
