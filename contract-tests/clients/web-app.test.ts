import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

/** Debian's chromium (installed by .ci/run), or CHROMIUM_PATH. */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const ROOT = new URL('../../', import.meta.url).pathname;
const SHOTS = new URL('../../test-artifacts/web/', import.meta.url).pathname;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The change feed's poll for these tabs: one second instead of ten, so "within one poll" is quick to wait for. */
const POLL_MS = 1000;

const title = CHROMIUM
  ? 'the web app (/app/) in a real chromium against the real server'
  : 'the web app in a real browser: SKIPPED, no chromium installed (apt-get install chromium, or set CHROMIUM_PATH)';

describe.skipIf(!CHROMIUM)(title, () => {
  let server: TestServer;
  let feeds: FakeIcalFeeds;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let first: Page;
  let second: Page;
  const contexts: BrowserContext[] = [];
  const failures: string[] = [];
  const email = uniqueEmail('web');

  beforeAll(async () => {
    // The app the server serves is web/dist: built from the sources under test.
    const built = spawnSync('npm', ['run', 'build', '--silent', '-w', 'web'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`web/ did not build:\n${built.stdout}${built.stderr}`);
    // The cookie session checks Origin against PUBLIC_URL: the port is chosen first so the two agree.
    const port = await freePort();
    [feeds, receiver] = await Promise.all([startFakeIcalFeeds(), startWebhookReceiver()]);
    server = await startServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } });
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--disable-gpu'] });
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), feeds?.close(), receiver?.close()]);
  });

  const openTab = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const tab = await context.newPage();
    tab.on('pageerror', (err) => failures.push(err.message));
    tab.on('console', (message) => {
      // A refused request (401 before sign-in, the 412 under test) is the page's business; a CSP refusal or a crash is not.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) failures.push(message.text());
    });
    await tab.goto(`${server.baseUrl}/app/?pollMs=${POLL_MS}`);
    return tab;
  };
  /** Sees the page as a reader would: its accessibility scan, and how it looks narrow and wide. */
  const review = async (tab: Page, name: string) => {
    await tab.waitForLoadState('networkidle');
    const violations = await scan(tab);
    expect(violations, `${name}: serious or critical accessibility violations`).toEqual([]);
    for (const width of [360, 1280]) {
      await tab.setViewportSize({ width, height: 900 });
      await tab.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: true });
    }
  };
  const goTo = async (tab: Page, link: string) => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await expect.poll(() => tab.getByRole('heading', { level: 1 }).textContent()).toBe(link);
  };
  const signIn = async (tab: Page) => {
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
  };
  const edit = async (tab: Page, from: string, to: string) => {
    await tab.getByRole('button', { name: `Edit: ${from}` }).click();
    await tab.getByLabel('Title').fill(to);
    await tab.getByRole('button', { name: 'Save' }).click();
  };

  it('signs up from the sign-in page, with the accessible names of the contract', async () => {
    first = await openTab();
    await expect.poll(() => first.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await first.getByLabel('Email').waitFor();
    expect(await first.locator('form').count()).toBe(1);
    await review(first, 'sign-in');
    await first.getByRole('link', { name: 'Create an account' }).click();
    await first.getByRole('button', { name: 'Create account' }).waitFor();
    expect(await first.locator('form').count()).toBe(1);
    await review(first, 'sign-up');
    await first.getByLabel('Email').fill(email);
    await first.getByLabel('Password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    for (const link of ['Tasks', 'Connections', 'API tokens', 'Authorised apps', 'Webhooks', 'Usage', 'Account']) {
      await expect(first.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).count()).resolves.toBe(1);
    }
    await first.getByRole('button', { name: 'Sign out' }).waitFor();
    await first.getByText('No tasks here yet').waitFor();
  });

  it('creates three tasks, edits one and completes one', async () => {
    for (const name of ['Water the plants', 'File the taxes', 'Call the plumber']) {
      await first.getByLabel('New task').fill(name);
      await first.getByRole('button', { name: 'Add task' }).click();
      await first.getByRole('checkbox', { name: `Done: ${name}` }).waitFor();
    }
    await edit(first, 'Water the plants', 'Water the garden');
    await first.getByRole('checkbox', { name: 'Done: Water the garden' }).waitFor();

    await first.getByRole('checkbox', { name: 'Done: File the taxes' }).click();
    // The open list lets the completed task go; "All" shows it done.
    await first.getByRole('checkbox', { name: 'Done: File the taxes' }).waitFor({ state: 'detached' });
    await first.getByLabel('Status').selectOption('all');
    await expect.poll(() => first.getByRole('checkbox', { name: 'Done: File the taxes' }).isChecked()).toBe(true);
    await review(first, 'tasks');
  });

  it('a second tab signed in as the same person sees an edit within one poll, and its own edit makes the first tab\'s stale edit a conflict', async () => {
    second = await openTab();
    await signIn(second);
    await second.getByRole('checkbox', { name: 'Done: Call the plumber' }).waitFor();

    await edit(first, 'Call the plumber', 'Call the plumber at 9');
    const editedAt = Date.now();
    await second.getByRole('checkbox', { name: 'Done: Call the plumber at 9' }).waitFor({ timeout: POLL_MS * 2 + 3000 });
    process.stdout.write(`web app: an edit reached the other tab in ${Date.now() - editedAt} ms (poll every ${POLL_MS} ms)\n`);

    // The first tab starts editing; the second changes the same task meanwhile.
    await first.getByRole('button', { name: 'Edit: Water the garden' }).click();
    await edit(second, 'Water the garden', 'Water the roses');
    await second.getByRole('checkbox', { name: 'Done: Water the roses' }).waitFor();
    await first.getByLabel('Title').fill('Water the lawn');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByRole('alert').filter({ hasText: 'changed elsewhere' }).waitFor();
    await first.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => first.getByLabel('Title').inputValue()).toBe('Water the roses');
    await first.getByRole('button', { name: 'Cancel' }).click();
    await first.getByRole('checkbox', { name: 'Done: Water the roses' }).waitFor();
  });

  it('connects the iCalendar feed and syncs it, the count shown when the job ends', async () => {
    feeds.setFeed('/web.ics', [
      { uid: 'web-1', summary: 'Renew the passport' },
      { uid: 'web-2', summary: 'Book the dentist' },
    ]);
    await goTo(first, 'Connections');
    await first.getByLabel('Connector', { exact: true }).selectOption('ical');
    await first.getByLabel('iCalendar URL').fill(feeds.url('/web.ics'));
    await first.getByRole('button', { name: 'Connect', exact: true }).click();
    await first.getByRole('button', { name: /^Sync now: / }).click();
    await first.getByText(/Sync succeeded: 2 fetched, 2 created, 0 updated, 0 unchanged, 0 dropped over quota\./).waitFor({ timeout: 20_000 });
    await review(first, 'connections');
    await goTo(first, 'Tasks');
    await first.getByRole('checkbox', { name: 'Done: Book the dentist' }).waitFor();
  });

  it('creates an API token, shows its secret once, and revokes it', async () => {
    await goTo(first, 'API tokens');
    await first.getByText('No API tokens.').waitFor();
    await first.getByLabel('Token name').fill('backup script');
    await first.getByRole('button', { name: 'Create token' }).click();
    const secret = await first.getByLabel('New token “backup script”').inputValue();
    const me = () => fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${secret}` } }).then((response) => response.status);
    expect(await me()).toBe(200);
    await review(first, 'api-tokens');
    await first.getByRole('button', { name: 'Revoke: backup script' }).click();
    await first.getByText('No API tokens.').waitFor();
    expect(await me()).toBe(401);
  });

  it('creates a webhook to a local receiver and shows the ping in its delivery log', async () => {
    const url = receiver.url('/web-hook');
    await goTo(first, 'Webhooks');
    await first.getByLabel('Payload URL').fill(url);
    await first.getByRole('button', { name: 'Create webhook' }).click();
    expect(await first.getByLabel(`Signing secret for ${url}`).inputValue()).toMatch(/^whsec_/);
    await first.getByRole('button', { name: `Ping: ${url}` }).click();
    await receiver.waitFor(() => receiver.accepted('/web-hook').length > 0, 'the ping');
    await expect
      .poll(
        async () => {
          await first.getByRole('button', { name: new RegExp(`^(Refresh deliveries|Deliveries): ${url}$`) }).click();
          return first.getByRole('row').filter({ hasText: 'webhook.ping' }).first().textContent({ timeout: 1000 }).catch(() => '');
        },
        { timeout: 15_000, interval: 500 },
      )
      .toMatch(/webhook\.pingsucceeded1200/);
    await review(first, 'webhooks');
  });

  it('shows usage as bars, the authorised apps and the account page', async () => {
    await goTo(first, 'Usage');
    await first.getByRole('meter', { name: 'Tasks' }).waitFor();
    // Three tasks made here and two synced.
    expect(await first.locator('.bar').filter({ has: first.getByRole('meter', { name: 'Tasks' }) }).textContent()).toMatch(/^Tasks5 of \d+ used$/);
    await review(first, 'usage');
    await goTo(first, 'Authorised apps');
    await first.getByText('No app has access to your account.').waitFor();
    await review(first, 'authorised-apps');
    await goTo(first, 'Account');
    await review(first, 'account');
  });

  it('signs out, signs in again, and deletes the account after the typed confirmation', async () => {
    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    // Signed out means signed out: a reload does not bring the session back.
    await first.reload();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(first);

    await goTo(first, 'Account');
    await first.getByLabel('Password').fill(PASSWORD);
    expect(await first.getByRole('button', { name: 'Delete account' }).isDisabled()).toBe(true);
    await first.getByLabel(/^Type your email/).fill(email);
    await first.getByRole('button', { name: 'Delete account' }).click();
    await first.getByText('Your account was deleted.').waitFor();
    await first.getByLabel('Email').fill(email);
    await first.getByLabel('Password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('alert').waitFor();
    expect(failures).toEqual([]);
  });

  it('renders a list of 100 tasks (time printed, not asserted)', async () => {
    const { email: many, client } = await signedInClient(server);
    for (let n = 1; n <= 100; n += 1) expect((await client.createTask({ title: `Task ${n}` })).error).toBeUndefined();
    const tab = await openTab();
    await tab.getByLabel('Email').fill(many);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tab.getByRole('checkbox', { name: /^Done: Task \d+$/ }).count()).toBe(100);
    const rendered = await tab.evaluate(() => performance.getEntriesByName('tasks:render').map((entry) => entry.duration));
    expect(rendered.length).toBeGreaterThan(0);
    process.stdout.write(`web app: 100 tasks rendered ${rendered.at(-1)!.toFixed(1)} ms after the list's answer\n`);
  });
});

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP stays on): its serious and critical findings. */
async function scan(tab: Page): Promise<string[]> {
  await tab.evaluate(AXE);
  const found = await tab.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => String(node.target[0])) }));
  });
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} at ${violation.targets.join(', ')}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
