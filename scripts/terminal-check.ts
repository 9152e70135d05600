// A terminal check of taskctl as a person sees it: in a real terminal (tmux), `taskctl usage` draws a
// bar per cap and budget window, and `taskctl connectors sync` shows a progress line while the job runs,
// then clears it and prints the figures. Starts its own server and a slow iCal feed on 127.0.0.1.
// Run: node --import tsx scripts/terminal-check.ts   (needs tmux; the test command runs it)
import { execFileSync } from 'node:child_process';
import { startHttpFake } from '../contract-tests/support/fakes/http-fake.js';
import { manyTodos, vcalendar } from '../contract-tests/support/fakes/ical.fake.js';
import { signedInClient, startServer } from '../contract-tests/support/server.js';

const SESSION = `taskctl-check-${process.pid}`;
const TASKCTL = new URL('../cli/bin/taskctl.js', import.meta.url).pathname;
const FEED_DELAY_MS = 4_000;

const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', SESSION);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForScreen(test: (text: string) => boolean, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the terminal never showed what was expected; it shows:\n${text}`);
    await sleep(100);
  }
}

const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: string): void {
  checks.push({ name, ok, detail });
  process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}\n${detail.replace(/^/gm, '    | ')}\n`);
}

const server = await startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } });
let feedRequests = 0;
// The first answer (the connect's check) is quick; the sync's is slow, so its progress is on screen a while.
const feed = await startHttpFake((_req, res) => {
  const delay = feedRequests++ === 0 ? 0 : FEED_DELAY_MS;
  setTimeout(() => res.writeHead(200, { 'content-type': 'text/calendar' }).end(vcalendar(manyTodos(30))), delay);
});
try {
  const { client } = await signedInClient(server);
  const token = (await client.createApiToken({ name: 'terminal check' })).data!.token;
  const account = (await client.connectAccount('ical', { url: `${feed.origin}/tasks.ics` })).data!;
  for (let i = 0; i < 3; i++) await client.createTask({ title: `task ${i}` });

  tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '30', '-e', `TASKCTL_TOKEN=${token}`, '-e', `TASKCTL_SERVER=${server.baseUrl}`, '-e', 'PS1=$ ');
  tmux('send-keys', '-t', SESSION, `node ${TASKCTL} usage`, 'Enter');
  const usage = await waitForScreen((text) => text.includes('This client, this hour'), 15_000);
  check(
    'taskctl usage draws a bar for each cap and budget window',
    /Tasks\s+\[#*\.+\] 3 of 10000/.test(usage) && (usage.match(/Requests: .*\[[#.]{24}\] \d+ of \d+ +resets in \d+ s/g) ?? []).length === 4,
    usage.trimEnd(),
  );

  tmux('send-keys', '-t', SESSION, 'clear', 'Enter');
  await sleep(300);
  tmux('send-keys', '-t', SESSION, `node ${TASKCTL} connectors sync ${account.id}`, 'Enter');
  const progress = await waitForScreen((text) => /Syncing\.\.\. (queued|running)/.test(text), 15_000);
  const done = await waitForScreen((text) => text.includes('Sync succeeded'), 30_000);
  check(
    'taskctl connectors sync shows progress while the job runs, then clears it and prints the figures',
    /[|/\\-] Syncing\.\.\. (queued|running): fetched \d+/.test(progress) &&
      !done.includes('Syncing...') &&
      done.includes('Sync succeeded: fetched 30, created 30, updated 0, unchanged 0, dropped over quota 0.'),
    `while running:\n${progress.trimEnd()}\nat the end:\n${done.trimEnd()}`,
  );
} finally {
  try {
    tmux('kill-session', '-t', SESSION);
  } catch {
    // never started
  }
  await feed.close();
  await server.stop();
}

const failed = checks.filter((entry) => !entry.ok).length;
process.stdout.write(failed === 0 ? `taskctl terminal check: all ${checks.length} checks pass\n` : `taskctl terminal check: ${failed} of ${checks.length} checks FAILED\n`);
process.exit(failed === 0 && checks.length === 2 ? 0 : 1);
