import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { PASSWORD, signedInClient, uniqueEmail, type TestServer } from '../support/server.js';
import { axeViolations, contrast, horizontalOverflow, PHONE, startServerOnFreePort, WIDE } from './web-app.support.js';

/** Debian's chromium (installed by .ci/run), or CHROMIUM_PATH. */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const ROOT = new URL('../../', import.meta.url).pathname;
/** The build as `npm start` makes it: vitest sets NODE_ENV=test, which Vite would keep (and ship the libraries' development code). */
const PRODUCTION_BUILD = { ...process.env, NODE_ENV: 'production' };
const SHOTS = new URL('../../test-artifacts/web/', import.meta.url).pathname;
/** The change feed's poll for these tabs: one second instead of ten, so "within one poll" is quick to wait for. */
const POLL_MS = 1000;
const TIME_ZONE = 'Europe/Berlin';

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
  /** The same person on another device: the API, as a phone app would use it. */
  let device: Awaited<ReturnType<typeof signedInClient>>['client'];

  beforeAll(async () => {
    // The app the server serves is web/dist: built from the sources under test.
    const built = spawnSync('npm', ['run', 'build', '--silent', '-w', 'web'], { cwd: ROOT, encoding: 'utf8', env: PRODUCTION_BUILD });
    if (built.status !== 0) throw new Error(`web/ did not build:\n${built.stdout}${built.stderr}`);
    [feeds, receiver] = await Promise.all([startFakeIcalFeeds(), startWebhookReceiver()]);
    server = await startServerOnFreePort(() => ({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' }));
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--disable-gpu'] });
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), feeds?.close(), receiver?.close()]);
  });

  const openTab = async (viewport = WIDE, query = `pollMs=${POLL_MS}`) => {
    const context = await browser.newContext({ viewport, timezoneId: TIME_ZONE, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    contexts.push(context);
    const tab = await context.newPage();
    tab.on('pageerror', (err) => failures.push(err.message));
    tab.on('console', (message) => {
      // A refused request (the 412 under test, a wrong password) is the page's business; a CSP refusal or a crash is not.
      if (message.type() === 'error' && !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(message.text())) failures.push(message.text());
    });
    await tab.goto(`${server.baseUrl}/app/?${query}`);
    return tab;
  };
  /** The browser's own network emulation (DevTools protocol): offline, or a slow link. */
  const sessions = new Map<Page, CDPSession>();
  const network = async (tab: Page, conditions: { offline?: boolean; latency?: number }) => {
    let cdp = sessions.get(tab);
    if (!cdp) {
      cdp = await tab.context().newCDPSession(tab);
      sessions.set(tab, cdp);
      await cdp.send('Network.enable');
    }
    await cdp.send('Network.emulateNetworkConditions', { offline: conditions.offline ?? false, latency: conditions.latency ?? 0, downloadThroughput: -1, uploadThroughput: -1 });
  };
  /**
   * Sees the page as a reader would, wide (1280x800) and on a phone (360x740): axe with the WCAG 2.2
   * A/AA rules finds nothing, nothing is wider than the screen, and screenshots for a person to look at.
   */
  const review = async (tab: Page, name: string) => {
    await tab.waitForLoadState('networkidle');
    const before = tab.viewportSize() ?? WIDE;
    for (const viewport of [WIDE, PHONE]) {
      await tab.setViewportSize(viewport);
      expect(await axeViolations(tab), `${name} at ${viewport.width} px: accessibility violations`).toEqual([]);
      expect(await horizontalOverflow(tab), `${name} at ${viewport.width} px: wider than the screen`).toEqual([]);
      // Outcomes are said through one live region; failures are alerts where the action was.
      expect(await tab.locator('[role=status], [aria-live], output').count(), `${name}: live regions`).toBe(1);
      await tab.screenshot({ path: `${SHOTS}${name}-${viewport.width}.png`, fullPage: true });
    }
    await tab.setViewportSize(before);
  };
  const goTo = async (tab: Page, link: string) => {
    const menu = tab.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await expect.poll(() => tab.getByRole('heading', { level: 1 }).textContent()).toBe(link);
    await expect.poll(() => tab.title()).toBe(`${link} - Task Service`);
  };
  const signIn = async (tab: Page, who = email) => {
    await tab.getByLabel('Email').fill(who);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
  };
  const edit = async (tab: Page, from: string, to: string) => {
    await tab.getByRole('button', { name: `Edit: ${from}` }).click();
    await tab.getByLabel('Title').fill(to);
    await tab.getByRole('button', { name: 'Save' }).click();
  };
  const add = async (tab: Page, line: string, shown: string) => {
    await tab.getByLabel('New task').fill(line);
    await tab.getByRole('button', { name: 'Add task' }).click();
    await tab.getByRole('checkbox', { name: `Done: ${shown}` }).waitFor();
  };
  const editor = (tab: Page) => tab.getByRole('form', { name: /^Edit task: / });
  const status = (tab: Page) => tab.getByRole('status').filter({ has: tab.locator('p') });
  const focused = (tab: Page) => tab.evaluate(() => document.activeElement?.getAttribute('aria-label') || document.activeElement?.id || document.activeElement?.textContent);
  const taskNamed = async (name: string) => (await device.listTasks({ status: 'all', limit: 200 })).data!.items.find((task) => task.title === name);

  it('paints before the script, makes no refresh request when signed out, and signs up with the accessible names of the contract', async () => {
    // First paint: the static shell of index.html, with script off.
    const bare = await browser.newContext({ javaScriptEnabled: false });
    const shell = await bare.newPage();
    await shell.goto(`${server.baseUrl}/app/`);
    expect(await shell.locator('body').innerText()).toMatch(/Task Service\s+Loading/);
    await bare.close();

    const context = await browser.newContext({ viewport: WIDE, timezoneId: TIME_ZONE, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    contexts.push(context);
    first = await context.newPage();
    first.on('pageerror', (err) => failures.push(err.message));
    const refreshes: string[] = [];
    first.on('request', (request) => request.url().endsWith('/auth/refresh') && refreshes.push(request.url()));
    await first.goto(`${server.baseUrl}/app/?pollMs=${POLL_MS}`);
    await expect.poll(() => first.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await expect.poll(() => first.title()).toBe('Sign in - Task Service');
    await first.getByLabel('Email').waitFor();
    await first.waitForLoadState('networkidle');
    expect(refreshes, 'a signed-out load asks for no refresh').toEqual([]);
    expect(await first.locator('form').count()).toBe(1);
    await review(first, 'sign-in');
    await first.getByRole('link', { name: 'Create an account' }).click();
    await first.getByRole('button', { name: 'Create account' }).waitFor();
    await expect.poll(() => first.title()).toBe('Create an account - Task Service');
    // Field errors in words: a short password, said as a person would.
    await first.getByLabel('Email').fill(email);
    await first.getByLabel('Password').fill('short');
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.getByText('Use a password of at least 8 characters.').waitFor();
    await review(first, 'sign-up');
    await first.getByLabel('Password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    await expect.poll(() => first.title()).toBe('Tasks - Task Service');
    for (const link of ['Tasks', 'Connections', 'API tokens', 'Authorised apps', 'Webhooks', 'Usage', 'Account']) {
      await expect(first.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).count()).resolves.toBe(1);
    }
    await first.getByRole('button', { name: 'Sign out' }).waitFor();
    await first.getByText('No tasks here yet').waitFor();
    // Signed in, a reload resumes the session with one refresh that succeeds.
    await first.reload();
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    expect(refreshes).toHaveLength(1);

    const login = await server.client().login({ email, password: PASSWORD });
    device = server.client({ accessToken: login.data!.accessToken, refreshToken: login.data!.refreshToken });
  });

  it('quick add reads priority, label and due date from the line, shows them before saving, and announces the task', async () => {
    await first.getByLabel('New task').fill('Pay rent p1 #home tomorrow 9am');
    await expect.poll(() => first.locator('#new-task-preview').textContent()).toMatch(/^Will add “Pay rent”, priority P1, #home, due \w{3} \d{1,2} \w{3} 0?9:00\.$/);
    await first.getByRole('button', { name: 'Add task' }).click();
    await first.getByRole('checkbox', { name: 'Done: Pay rent' }).waitFor();
    await expect.poll(() => status(first).textContent()).toContain('Added “Pay rent”.');
    await expect.poll(() => focused(first)).toBe('new-task');
    const rent = (await taskNamed('Pay rent'))!;
    expect(rent).toMatchObject({ priority: 1, labels: ['home'] });
    // Tomorrow at 9:00 in the browser's time zone.
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(local.format(new Date(rent.dueAt!))).toBe(`${local.format(tomorrow).split(',')[0]}, 09:00`);

    for (const name of ['Water the plants', 'File the taxes', 'Call the plumber']) await add(first, name, name);
  });

  it('marks overdue and due-today tasks in words, not colour alone', async () => {
    // Today as the page reads it: in its own time zone (TIME_ZONE), not this process's.
    const endOfToday = await first.evaluate(() => {
      const end = new Date();
      end.setHours(23, 59, 0, 0);
      return end.toISOString();
    });
    await device.createTask({ title: 'Renew the insurance', dueAt: new Date(Date.now() - 86_400_000).toISOString() });
    await device.createTask({ title: 'Buy bread', dueAt: endOfToday });
    const row = (name: string) => first.locator('li.task').filter({ has: first.getByRole('checkbox', { name: `Done: ${name}` }) });
    await expect.poll(() => row('Renew the insurance').textContent(), { timeout: 5000 }).toMatch(/Overdue: /);
    await expect.poll(() => row('Buy bread').textContent(), { timeout: 5000 }).toMatch(/Due today|Overdue/);
  });

  it('a slow network: the button waits for its answer, a second press makes no second task', async () => {
    await network(first, { latency: 1500 });
    await first.getByLabel('New task').fill('Slow task');
    await first.getByRole('button', { name: 'Add task' }).click();
    expect(await first.getByRole('button', { name: 'Add task' }).isDisabled()).toBe(true);
    await first.getByLabel('New task').press('Enter');
    await first.getByRole('checkbox', { name: 'Done: Slow task' }).waitFor({ timeout: 10_000 });
    await network(first, {});
    const made = (await device.listTasks({ status: 'all', limit: 200 })).data!.items.filter((task) => task.title === 'Slow task');
    expect(made).toHaveLength(1);
  });

  it('offline: the add says so where it was, keeps the line, clears when back, and the retry carries the same Idempotency-Key', async () => {
    const keys: string[] = [];
    first.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/tasks')) keys.push(request.headers()['idempotency-key'] ?? '');
    });
    await network(first, { offline: true });
    await first.getByLabel('New task').fill('Offline task');
    await first.getByRole('button', { name: 'Add task' }).click();
    const problem = first.locator('.quick-add').getByRole('alert');
    await expect.poll(() => problem.textContent()).toMatch(/could not be reached.*Nothing was lost/);
    expect(await first.getByLabel('New task').inputValue()).toBe('Offline task');
    // The list's own banner: stale data is said, and goes once a poll succeeds.
    await first.getByText('the list may be out of date').waitFor({ timeout: POLL_MS * 3 + 2000 });
    await network(first, {});
    await problem.waitFor({ state: 'detached', timeout: POLL_MS * 3 + 3000 });
    await first.getByText('the list may be out of date').waitFor({ state: 'detached', timeout: POLL_MS * 3 + 3000 });
    await first.getByRole('button', { name: 'Add task' }).click();
    await first.getByRole('checkbox', { name: 'Done: Offline task' }).waitFor();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys.slice(-2)).size).toBe(1);
    expect((await device.listTasks({ status: 'all', limit: 200 })).data!.items.filter((task) => task.title === 'Offline task')).toHaveLength(1);
  });

  it('opens the whole task: Title, Notes, Priority, Labels and Due, saved; Escape closes; focus returns to the row', async () => {
    await first.getByRole('button', { name: 'Edit: Water the plants' }).click();
    await expect.poll(() => focused(first)).toMatch(/^title-/);
    await first.getByLabel('Title').fill('Water the garden');
    await editor(first).getByLabel('Notes', { exact: true }).fill('The roses first.');
    await editor(first).getByLabel('Priority', { exact: true }).selectOption('2');
    await editor(first).getByLabel('Labels', { exact: true }).fill('home, garden');
    await editor(first).getByLabel('Due', { exact: true }).fill('2031-05-03T17:30');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByRole('checkbox', { name: 'Done: Water the garden' }).waitFor();
    await expect.poll(() => focused(first)).toBe('Edit: Water the garden');
    await expect.poll(() => status(first).textContent()).toContain('Saved “Water the garden”.');
    const saved = (await taskNamed('Water the garden'))!;
    expect(saved).toMatchObject({ notes: 'The roses first.', priority: 2, labels: ['home', 'garden'], dueAt: '2031-05-03T15:30:00.000Z' });

    await first.getByRole('button', { name: 'Edit: Water the garden' }).click();
    await first.getByLabel('Title').fill('');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByText('The title cannot be empty.').waitFor();
    await first.keyboard.press('Escape');
    await first.getByLabel('Title').waitFor({ state: 'detached' });
    await expect.poll(() => focused(first)).toBe('Edit: Water the garden');
  });

  it('an edit in progress survives another device completing the task: the form stays, says so, and offers the new version', async () => {
    await first.getByRole('button', { name: 'Edit: Call the plumber' }).click();
    await editor(first).getByLabel('Notes', { exact: true }).fill('Ask about the boiler too.');
    const plumber = (await taskNamed('Call the plumber'))!;
    expect((await device.updateTask(plumber.id, { status: 'completed', title: 'Call the plumber (done)' })).error).toBeUndefined();
    await first.getByText('This task changed on another device.').waitFor({ timeout: POLL_MS * 3 + 2000 });
    expect(await editor(first).getByLabel('Notes', { exact: true }).inputValue()).toBe('Ask about the boiler too.');
    await first.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => first.getByLabel('Title').inputValue(), { timeout: 10_000 }).toBe('Call the plumber (done)');
    await first.getByRole('button', { name: 'Cancel' }).click();
    // Completed elsewhere: once closed, it leaves the open list.
    await first.getByRole('checkbox', { name: /^Done: Call the plumber/ }).waitFor({ state: 'detached' });
  });

  it('an edit in progress survives another device deleting the task: the form stays with what was typed, and Cancel lets it go', async () => {
    await device.createTask({ title: 'Sort the photos' });
    await first.getByRole('checkbox', { name: 'Done: Sort the photos' }).waitFor({ timeout: POLL_MS * 3 + 2000 });
    await first.getByRole('button', { name: 'Edit: Sort the photos' }).click();
    await first.getByLabel('Title').fill('Sort the holiday photos');
    const photos = (await taskNamed('Sort the photos'))!;
    expect((await device.deleteTask(photos.id)).error).toBeUndefined();
    await first.getByText('This task was deleted on another device.').waitFor({ timeout: POLL_MS * 3 + 2000 });
    expect(await first.getByLabel('Title').inputValue()).toBe('Sort the holiday photos');
    expect(await first.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await first.getByRole('button', { name: 'Cancel' }).click();
    await first.getByRole('button', { name: 'Edit: Sort the photos' }).waitFor({ state: 'detached' });
    await expect.poll(() => focused(first)).toMatch(/^Done: /);
  });

  it('a second tab sees an edit within one poll, and sees at once that its open form went stale', async () => {
    second = await openTab();
    await signIn(second);
    await second.getByRole('checkbox', { name: 'Done: File the taxes' }).waitFor();
    await edit(first, 'File the taxes', 'File the taxes by May');
    const editedAt = Date.now();
    await second.getByRole('checkbox', { name: 'Done: File the taxes by May' }).waitFor({ timeout: POLL_MS * 2 + 3000 });
    process.stdout.write(`web app: an edit reached the other tab in ${Date.now() - editedAt} ms (poll every ${POLL_MS} ms)\n`);

    await first.getByRole('button', { name: 'Edit: Water the garden' }).click();
    await edit(second, 'Water the garden', 'Water the roses');
    await second.getByRole('checkbox', { name: 'Done: Water the roses' }).waitFor();
    await first.getByLabel('Title').fill('Water the lawn');
    await first.getByText('This task changed on another device.').waitFor({ timeout: POLL_MS * 3 + 2000 });
    // Saving anyway is refused (If-Match) and the form is still there.
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByText('This task changed on another device.').waitFor();
    expect(await first.getByLabel('Title').inputValue()).toBe('Water the lawn');
    await first.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => first.getByLabel('Title').inputValue(), { timeout: 10_000 }).toBe('Water the roses');
    await first.getByRole('button', { name: 'Cancel' }).click();
    await first.getByRole('checkbox', { name: 'Done: Water the roses' }).waitFor();
  });

  it('completing and deleting offer Undo; focus stays on the list', async () => {
    const boxes = first.getByRole('checkbox', { name: /^Done: / });
    const names = await boxes.evaluateAll((all) => all.map((box) => box.getAttribute('aria-label')));
    const at = names.indexOf('Done: Slow task');
    await first.getByRole('checkbox', { name: 'Done: Slow task' }).focus();
    await first.keyboard.press('Space');
    await first.getByRole('checkbox', { name: 'Done: Slow task' }).waitFor({ state: 'detached' });
    await expect.poll(() => status(first).textContent()).toContain('Completed “Slow task”.');
    await expect.poll(() => focused(first)).toBe(names[at + 1] ?? names[at - 1]);
    await status(first).getByRole('button', { name: 'Undo' }).click();
    await first.getByRole('checkbox', { name: 'Done: Slow task' }).waitFor();
    await expect.poll(async () => (await taskNamed('Slow task'))!.status).toBe('open');

    await first.getByRole('button', { name: 'Delete: Offline task' }).click();
    await first.getByRole('checkbox', { name: 'Done: Offline task' }).waitFor({ state: 'detached' });
    await expect.poll(() => focused(first)).toMatch(/^Done: /);
    await status(first).getByRole('button', { name: 'Undo' }).click();
    await first.getByRole('checkbox', { name: 'Done: Offline task' }).waitFor();
    expect(await taskNamed('Offline task')).toBeDefined();
    // Left alone, the delete happens when Undo is no longer offered.
    await first.getByRole('button', { name: 'Delete: Offline task' }).click();
    await status(first).getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(() => taskNamed('Offline task'), { timeout: 5000 }).toBeUndefined();
  });

  it('keyboard: q/n add, / finds, j/k move, x completes, e edits, u undoes, ? lists the shortcuts, Escape closes', async () => {
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).focus();
    await first.keyboard.press('?');
    const help = first.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await first.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await expect.poll(() => focused(first)).toBe('page-title');
    await first.keyboard.press('j');
    await expect.poll(() => focused(first)).toMatch(/^Done: /);
    const firstRow = await focused(first);
    await first.keyboard.press('j');
    await expect.poll(() => focused(first)).not.toBe(firstRow);
    await first.keyboard.press('k');
    await expect.poll(() => focused(first)).toBe(firstRow);
    await first.keyboard.press('e');
    await expect.poll(() => focused(first)).toMatch(/^title-/);
    await first.keyboard.press('Escape');
    await expect.poll(() => focused(first)).toMatch(/^Edit: /);
    await first.keyboard.press('k');
    await first.keyboard.press('j');
    const target = (await focused(first))!.replace(/^Done: /, '');
    await first.keyboard.press('x');
    await first.getByRole('checkbox', { name: `Done: ${target}` }).waitFor({ state: 'detached' });
    await first.keyboard.press('u');
    await first.getByRole('checkbox', { name: `Done: ${target}` }).waitFor();
    await first.keyboard.press('q');
    await expect.poll(() => focused(first)).toBe('new-task');
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).focus();
    await first.keyboard.press('n');
    await expect.poll(() => focused(first)).toBe('new-task');
    await first.getByRole('heading', { name: 'Tasks', level: 1 }).focus();
    await first.keyboard.press('/');
    await expect.poll(() => focused(first)).toBe('search');
    await review(first, 'tasks');
  });

  it('finds tasks: Search, Label, Priority, Due and Sort go to the service, stay in the address, and the feed keeps the view current', async () => {
    const asked: URLSearchParams[] = [];
    first.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === '/tasks') asked.push(url.searchParams);
    });
    const shown = () => first.getByRole('checkbox', { name: /^Done: / }).evaluateAll((all) => all.map((box) => box.getAttribute('aria-label')!.slice('Done: '.length)));
    await first.getByLabel('Search').fill('rent');
    await expect.poll(() => asked.at(-1)?.get('q')).toBe('rent');
    await expect.poll(shown).toEqual(['Pay rent']);
    expect(new URL(first.url()).searchParams.get('q')).toBe('rent');
    await first.getByLabel('Search').fill('');
    await expect.poll(async () => (await shown()).length).toBeGreaterThan(1);

    const home = first.getByRole('group', { name: 'Label' }).getByRole('button', { name: /^home, \d+ open$/ });
    await home.click();
    await expect.poll(() => asked.at(-1)?.getAll('label')).toEqual(['home']);
    await expect.poll(shown).toEqual(['Pay rent', 'Water the roses']);
    expect(await home.getAttribute('aria-pressed')).toBe('true');
    expect(asked.at(-1)!.getAll('label')).toEqual(['home']);
    expect(new URL(first.url()).searchParams.getAll('label')).toEqual(['home']);
    // Another device: a new task with the label joins the view, one without does not, and one losing the label leaves it.
    await device.createTask({ title: 'Feed the cat', labels: ['Home'] });
    await device.createTask({ title: 'Not at home' });
    const rent = (await taskNamed('Pay rent'))!;
    expect((await device.updateTask(rent.id, { labels: [] })).error).toBeUndefined();
    await expect.poll(async () => (await shown()).join(' | '), { timeout: POLL_MS * 3 + 2000 }).toBe('Water the roses | Feed the cat');
    // Back in the view at its place in the order (oldest first), as the service orders it.
    expect((await device.updateTask(rent.id, { labels: ['home'] })).error).toBeUndefined();
    await expect.poll(shown, { timeout: POLL_MS * 3 + 2000 }).toEqual(['Pay rent', 'Water the roses', 'Feed the cat']);
    // The address holds the view: a reload shows the same.
    await first.reload();
    await expect.poll(shown).toEqual(['Pay rent', 'Water the roses', 'Feed the cat']);
    await home.click();
    await expect.poll(() => new URL(first.url()).searchParams.getAll('label')).toEqual([]);

    await first.getByLabel('Due').selectOption('overdue');
    await expect.poll(() => asked.at(-1)?.get('dueBefore')).toBeTruthy();
    await expect.poll(shown).toEqual(['Renew the insurance']);
    await first.getByLabel('Due').selectOption('week');
    await expect.poll(shown).toEqual(expect.arrayContaining(['Pay rent']));
    expect(await shown()).not.toContain('Renew the insurance');
    await first.getByLabel('Due').selectOption('');

    await first.getByLabel('Sort').selectOption('priority');
    await expect.poll(() => asked.at(-1)?.get('sort')).toBe('priority');
    // P1 first, then P2; among the P3s the one with a due date (overdue) before those without.
    await expect.poll(async () => (await shown()).slice(0, 2)).toEqual(['Pay rent', 'Water the roses']);
    const byPriority = await shown();
    expect(byPriority.indexOf('Renew the insurance')).toBeLessThan(byPriority.indexOf('File the taxes by May'));
    await first.getByLabel('Priority', { exact: true }).selectOption('2');
    await expect.poll(() => asked.at(-1)?.getAll('priority')).toEqual(['2']);
    await expect.poll(shown).toEqual(['Water the roses']);
    await review(first, 'tasks-filtered');
    await first.getByLabel('Priority', { exact: true }).selectOption('');
    await first.getByLabel('Sort').selectOption('created');
    await expect.poll(() => new URL(first.url()).search).toBe(`?pollMs=${POLL_MS}`);
  });

  it('refreshes when the tab regains focus, without waiting for the poll', async () => {
    const slow = await openTab(WIDE, 'pollMs=60000');
    await signIn(slow);
    await slow.getByRole('checkbox', { name: 'Done: Pay rent' }).waitFor();
    await slow.waitForLoadState('networkidle');
    await device.createTask({ title: 'Seen on focus' });
    await slow.evaluate(() => dispatchEvent(new Event('focus')));
    await slow.getByRole('checkbox', { name: 'Done: Seen on focus' }).waitFor({ timeout: 5000 });
    await slow.context().close();
  });

  it('polls less while the tab is hidden, and at once when it is shown again', async () => {
    const tab = await openTab(WIDE, 'pollMs=400');
    await signIn(tab);
    await tab.getByRole('checkbox', { name: 'Done: Pay rent' }).waitFor();
    const polls: number[] = [];
    tab.on('request', (request) => new URL(request.url()).pathname === '/tasks/changes' && polls.push(Date.now()));
    const visibility = (state: 'hidden' | 'visible') =>
      tab.evaluate((next) => {
        Object.defineProperty(document, 'visibilityState', { value: next, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const visiblePolls = polls.length;
    await visibility('hidden');
    polls.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const hiddenPolls = polls.length;
    // 400 ms apart while shown; hidden, the wait doubles (800, 1600, 3200 ms...).
    expect(visiblePolls).toBeGreaterThanOrEqual(3);
    expect(hiddenPolls).toBeLessThanOrEqual(3);
    await device.createTask({ title: 'Seen when shown' });
    await visibility('visible');
    await tab.getByRole('checkbox', { name: 'Done: Seen when shown' }).waitFor({ timeout: 1500 });
    await tab.context().close();
  });

  it('connects the iCalendar feed and syncs it; an unreachable feed is said in words; disconnecting asks first', async () => {
    feeds.setFeed('/web.ics', [
      { uid: 'web-1', summary: 'Renew the passport' },
      { uid: 'web-2', summary: 'Book the dentist' },
    ]);
    await goTo(first, 'Connections');
    await first.getByLabel('Connector', { exact: true }).selectOption('ical');
    await first.getByLabel('iCalendar URL').fill('http://127.0.0.1:1/nothing.ics');
    await first.getByRole('button', { name: 'Connect', exact: true }).click();
    await first.getByText('The provider could not be reached. Check the address, or try again later.').waitFor();
    expect(await first.locator('main').innerText()).not.toMatch(/ECONNREFUSED|ENOTFOUND|CONNECTOR_|must /);
    await first.getByLabel('iCalendar URL').fill(feeds.url('/web.ics'));
    await first.getByRole('button', { name: 'Connect', exact: true }).click();
    await first.getByRole('button', { name: /^Sync now: / }).click();
    await first.getByText(/Sync succeeded: 2 fetched, 2 created, 0 updated, 0 unchanged, 0 dropped over quota\./).waitFor({ timeout: 20_000 });
    await review(first, 'connections');
    await goTo(first, 'Tasks');
    await first.getByRole('checkbox', { name: 'Done: Book the dentist' }).waitFor();
    await goTo(first, 'Connections');
    await first.getByRole('button', { name: /^Disconnect: / }).click();
    const ask = first.getByRole('dialog');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await first.getByRole('button', { name: /^Disconnect: / }).waitFor();
    await first.getByRole('button', { name: /^Disconnect: / }).click();
    await ask.getByRole('button', { name: 'Disconnect' }).click();
    await first.getByText('Nothing connected yet.').waitFor();
  });

  it('creates an API token, shows its secret once, and revokes it after asking', async () => {
    await goTo(first, 'API tokens');
    await first.getByText('No API tokens.').waitFor();
    await first.getByRole('button', { name: 'Create token' }).click();
    await first.getByText('The name cannot be empty.').waitFor();
    await first.getByLabel('Token name').fill('backup script');
    await first.getByRole('button', { name: 'Create token' }).click();
    const secret = await first.getByLabel('New token “backup script”').inputValue();
    const me = () => fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${secret}` } }).then((response) => response.status);
    expect(await me()).toBe(200);
    await review(first, 'api-tokens');
    await first.getByRole('button', { name: 'Revoke: backup script' }).click();
    await first.getByRole('dialog').waitFor();
    await first.keyboard.press('Escape');
    expect(await me()).toBe(200);
    await first.getByRole('button', { name: 'Revoke: backup script' }).click();
    await first.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await first.getByText('No API tokens.').waitFor();
    expect(await me()).toBe(401);
  });

  it('creates a webhook (a bad address said in words), shows the ping in its delivery log, and deletes it after asking', async () => {
    const url = receiver.url('/web-hook');
    await goTo(first, 'Webhooks');
    await first.getByLabel('Payload URL').fill('ftp://example');
    await first.getByRole('button', { name: 'Create webhook' }).click();
    await first.locator('.field-error').first().waitFor();
    expect(await first.locator('main').innerText()).not.toMatch(/must |pattern|CONNECTOR_ALLOW_PRIVATE_NETWORKS|API description/);
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
      .toMatch(/webhook\.ping.*succeeded.*1.*200/);
    await review(first, 'webhooks');
    await first.getByRole('button', { name: `Delete: ${url}` }).click();
    await first.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await first.getByText('No webhooks yet.').waitFor();
  });

  it('shows usage as bars, the authorised apps and the account page; dark theme and focus ring contrast', async () => {
    await goTo(first, 'Usage');
    await first.getByRole('meter', { name: 'Tasks' }).waitFor();
    await review(first, 'usage');
    await goTo(first, 'Authorised apps');
    await first.getByText('No app has access to your account.').waitFor();
    await review(first, 'authorised-apps');
    await goTo(first, 'Account');
    await review(first, 'account');

    for (const scheme of ['light', 'dark'] as const) {
      await first.emulateMedia({ colorScheme: scheme });
      await goTo(first, 'Tasks');
      await first.getByRole('button', { name: /^Edit: / }).first().focus();
      await first.keyboard.press('Shift+Tab');
      await first.keyboard.press('Tab');
      const ring = await first.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return { outline: style.outlineColor, width: style.outlineWidth, page: getComputedStyle(document.body).backgroundColor };
      });
      expect(ring.width).toBe('3px');
      expect(contrast(ring.outline, ring.page), `${scheme}: focus ring against the page`).toBeGreaterThanOrEqual(3);
      if (scheme === 'dark') {
        expect(contrast(ring.page, 'rgb(0, 0, 0)')).toBeLessThan(1.5);
        await review(first, 'tasks-dark');
      }
    }
    await first.emulateMedia({ colorScheme: 'light' });
  });

  it('on a phone (360x740): a one-line header with the navigation behind Menu, rows that do not wrap, 44 px targets', async () => {
    const phone = await openTab(PHONE);
    await signIn(phone);
    await phone.getByRole('checkbox', { name: 'Done: Pay rent' }).waitFor();
    const header = await phone.locator('header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(60);
    expect(await phone.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const firstTask = await phone.locator('li.task').first().boundingBox();
    expect(firstTask!.y).toBeLessThan(400);
    for (const row of await phone.locator('li.task').all()) {
      const check = await row.locator('label.check-target').boundingBox();
      const actions = await row.locator('.actions').boundingBox();
      expect(check!.width).toBeGreaterThanOrEqual(44);
      expect(check!.height).toBeGreaterThanOrEqual(44);
      // Edit and Delete sit on the checkbox's line, not under the title.
      expect(Math.abs(actions!.y + actions!.height / 2 - (check!.y + check!.height / 2))).toBeLessThan(12);
      for (const button of await row.getByRole('button').all()) {
        const box = await button.boundingBox();
        expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
      }
    }
    await phone.getByRole('button', { name: 'Menu' }).click();
    await phone.getByRole('navigation', { name: 'Main' }).waitFor();
    await phone.keyboard.press('Escape');
    await phone.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    await expect.poll(() => focused(phone)).toBe('Menu');
    for (const link of ['Connections', 'API tokens', 'Authorised apps', 'Webhooks', 'Usage', 'Account', 'Tasks']) {
      await goTo(phone, link);
      await phone.waitForLoadState('networkidle');
      expect(await horizontalOverflow(phone), `${link} on a phone`).toEqual([]);
    }
    await phone.context().close();
  });

  it('sign-in failures: the same warning for every email, announced each time; a lock says when it opens', async () => {
    const { email: victim } = await signedInClient(server);
    const tab = await openTab();
    const alerts: string[] = [];
    const tryPassword = async (who: string, password: string) => {
      await tab.getByLabel('Email').fill(who);
      await tab.getByLabel('Password').fill(password);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      const alert = tab.getByRole('alert');
      // A new alert node each time: screen readers announce a repeated failure again.
      await alert.and(tab.locator(':not([data-seen])')).waitFor();
      await alert.evaluate((node) => node.setAttribute('data-seen', ''));
      alerts.push((await alert.textContent())!);
    };
    for (let n = 0; n < 5; n += 1) await tryPassword(victim, 'wrong password');
    expect(new Set(alerts).size).toBe(1);
    expect(alerts[0]).toBe('The email or password is wrong. After 5 failed sign-ins in a row, sign-in is locked for 15 minutes.');
    await tryPassword(uniqueEmail('nobody'), 'wrong password');
    expect(alerts.at(-1)).toBe(alerts[0]);
    await tryPassword(victim, PASSWORD);
    expect(alerts.at(-1)).toMatch(/^Too many failed sign-ins: sign-in for this email is locked until \d{1,2}:\d{2} \(in 15 minutes\), even with the right password\.$/);
    await review(tab, 'sign-in-locked');
    await tab.context().close();
  });

  it('signs out, signs in again, and deletes the account after the typed confirmation', async () => {
    await goTo(first, 'Tasks');
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
    await signIn(tab, many);
    await expect.poll(() => tab.getByRole('checkbox', { name: /^Done: Task \d+$/ }).count()).toBe(100);
    const rendered = await tab.evaluate(() => performance.getEntriesByName('tasks:render').map((entry) => entry.duration));
    expect(rendered.length).toBeGreaterThan(0);
    process.stdout.write(`web app: 100 tasks rendered ${rendered.at(-1)!.toFixed(1)} ms after the list's answer\n`);
  });
});
