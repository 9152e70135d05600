import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import type { ReceivedDelivery } from '../../contract-tests/support/fakes/webhook-receiver.fake.js';
import type { Ledger } from './ledger.js';
import type { Exchange } from './traffic.js';

export interface FaultWindow {
  kind: string;
  start: number;
  end: number;
}

export interface Verdict {
  name: string;
  held: boolean;
  evidence: string;
}

export interface Limits {
  taskCap: number;
  accountBurst: number;
  clientBurst: number;
  maxFailedLogins: number;
  lockoutMinutes: number;
  poolMax: number;
  instances: number;
}

/** Seconds after a fault ends that its effects (reconnects, leases) may still show. */
const SETTLE_MS = 5_000;

const inside = (windows: FaultWindow[], from: number, to: number, kinds?: string[]) =>
  windows.some((window) => (!kinds || kinds.includes(window.kind)) && from <= window.end + SETTLE_MS && to >= window.start);

export function serverErrors(exchanges: Exchange[], windows: FaultWindow[]): Verdict {
  const outside = exchanges.filter((e) => (e.status >= 500 || e.status === 0) && e.t1 > 0 && !inside(windows, e.t0, e.t1));
  const badInside = exchanges.filter((e) => e.status >= 500 && inside(windows, e.t0, e.t1) && (e.status !== 503 || e.retryAfter === null));
  const sample = [...outside, ...badInside].slice(0, 5).map((e) => `${e.op} ${e.status || 'no answer'} at ${new Date(e.t0).toISOString()} (instance ${e.instance})`);
  return {
    name: 'no 5xx or lost answer outside fault windows; inside them only 503 with Retry-After',
    held: outside.length === 0 && badInside.length === 0,
    evidence: `${exchanges.filter((e) => e.status >= 500).length} 5xx and ${exchanges.filter((e) => e.status === 0).length} unanswered in all; ${outside.length} outside the windows, ${badInside.length} inside that were not 503 + Retry-After${sample.length ? `: ${sample.join('; ')}` : ''}`,
  };
}

export async function taskCounts(db: Knex, ledger: Ledger, limits: Limits): Promise<Verdict[]> {
  const rows = (await db('tasks').select('account_id').count({ n: '*' }).groupBy('account_id')) as { account_id: string; n: string | number }[];
  const stored = new Map(rows.map((row) => [row.account_id, Number(row.n)]));
  const off: string[] = [];
  let exact = 0;
  for (const tally of ledger.accounts.values()) {
    const count = stored.get(tally.id) ?? 0;
    const expected = tally.created - tally.deleted;
    if (Math.abs(count - expected) > tally.unknown) off.push(`${tally.email}: ${count} stored, ${expected} expected (+-${tally.unknown} unknown)`);
    else if (tally.unknown === 0) exact += 1;
  }
  const overCap = [...stored].filter(([, n]) => n > limits.taskCap);
  const badSyncs = ledger.syncs.filter((s) => s.status === 'succeeded' && s.fetched !== s.created + s.updated + s.unchanged + s.droppedOverQuota);
  const dropped = ledger.syncs.reduce((sum, s) => sum + s.droppedOverQuota, 0);
  return [
    {
      name: 'every account holds its accepted creates minus deletes',
      held: off.length === 0,
      evidence: `${ledger.accounts.size} accounts, ${exact} exact with no unknown outcome${off.length ? `; off: ${off.slice(0, 5).join('; ')}` : ''}`,
    },
    { name: `no account over the task cap (${limits.taskCap})`, held: overCap.length === 0, evidence: `largest: ${Math.max(0, ...stored.values())} tasks` },
    {
      name: 'every finished sync adds up (fetched = created + updated + unchanged + droppedOverQuota)',
      held: badSyncs.length === 0 && ledger.syncs.length > 0,
      evidence: `${ledger.syncs.length} sync jobs, ${dropped} items dropped over the cap${badSyncs.length ? `; ${badSyncs.length} do not add up` : ''}`,
    },
  ];
}

/** Served requests of one client (and one account) inside one UTC minute, counted only when sent and answered within it. */
/**
 * `countersInProcess`: the in-process limiter (no Redis), whose counts a restarted process starts again
 * from zero (docs/rate-limits.md): each process's life is checked on its own, split at the restarts.
 */
export function budgets(exchanges: Exchange[], windows: FaultWindow[], limits: Limits, countersInProcess = false): Verdict {
  const restarts = windows.filter((w) => w.kind === 'instance killed').map((w) => w.end);
  const life = (t: number) => (countersInProcess ? restarts.filter((end) => end <= t).length : 0);
  const perClient = new Map<string, number>();
  const perAccount = new Map<string, number>();
  for (const e of exchanges) {
    if (e.status < 200 || e.status >= 400 || !e.account || !e.client || e.op.startsWith('POST /auth/') || e.op.startsWith('POST /oauth/')) continue;
    const minute = Math.floor(e.t0 / 60_000);
    if (minute !== Math.floor(e.t1 / 60_000)) continue;
    // Without Redis each instance counts alone (docs/rate-limits.md), and Redis never learns of what they
    // admitted: what Redis admitted, the requests outside the outage, must still fit the limit.
    if (inside(windows, e.t0, e.t1, ['redis down'])) continue;
    const key = `${e.account}/${e.client} ${minute}.${life(e.t0)}`;
    perClient.set(key, (perClient.get(key) ?? 0) + 1);
    perAccount.set(`${e.account} ${minute}.${life(e.t0)}`, (perAccount.get(`${e.account} ${minute}.${life(e.t0)}`) ?? 0) + 1);
  }
  const overClient = [...perClient].filter(([, n]) => n > limits.clientBurst);
  const overAccount = [...perAccount].filter(([, n]) => n > limits.accountBurst);
  const busiest = Math.max(0, ...perClient.values());
  return {
    name: 'no budget window admitted more than its limit (client and account burst, per UTC minute)',
    held: overClient.length === 0 && overAccount.length === 0,
    evidence: `${perClient.size} client-minutes, busiest ${busiest}/${limits.clientBurst}${[...overClient, ...overAccount].length ? `; over: ${[...overClient, ...overAccount].slice(0, 5).join(', ')}` : ''}`,
  };
}

/** Passwords checked (401 answers) for the attacked account in any span of one lock period. */
export function lockout(ledger: Ledger, limits: Limits): Verdict {
  const checked = ledger.guesses.filter((g) => g.status === 401).map((g) => g.t0).sort((a, b) => a - b);
  const period = limits.lockoutMinutes * 60_000;
  let most = 0;
  for (let i = 0, j = 0; j < checked.length; j += 1) {
    while (checked[j]! - checked[i]! >= period) i += 1;
    most = Math.max(most, j - i + 1);
  }
  const locked = ledger.guesses.filter((g) => g.status === 429).length;
  return {
    name: `lockout exact: at most ${limits.maxFailedLogins} passwords checked per lock period`,
    held: most <= limits.maxFailedLogins && ledger.guesses.length > 0,
    evidence: `${ledger.guesses.length} guesses: ${checked.length} checked (401), ${locked} refused while locked (429); at most ${most} in one period`,
  };
}

export async function webhookDeliveries(db: Knex, ledger: Ledger, received: ReceivedDelivery[], gone: { at: number | undefined; arrivals: number[] }): Promise<Verdict[]> {
  const delivered = new Set(received.filter((r) => r.answered !== null && r.answered < 300).map((r) => `${r.path} ${r.id}`));
  const missing: string[] = [];
  let events = 0;
  for (const webhook of ledger.webhooks.filter((w) => w.behaviour !== 'gone')) {
    const [row] = (await db('webhooks').where({ id: webhook.id }).select('enabled')) as { enabled: boolean | number }[];
    if (!row || !row.enabled) {
      missing.push(`${webhook.behaviour} webhook turned off`);
      continue;
    }
    const rows = (await db('webhook_deliveries').where({ webhook_id: webhook.id }).select('event_id', 'status')) as { event_id: string; status: string }[];
    // Every numbered change of the account since the webhook was made is an event (src/webhooks/task-events.ts).
    const [account] = (await db('accounts').where({ id: webhook.account }).select('task_change_seq')) as { task_change_seq: number | string }[];
    const changes = Number(account?.task_change_seq ?? 0) - webhook.changesBefore;
    if (rows.length !== changes) missing.push(`${webhook.behaviour}: ${changes} changes but ${rows.length} events recorded`);
    events += rows.length;
    for (const row of rows) if (!delivered.has(`${webhook.path} ${row.event_id}`)) missing.push(`${webhook.behaviour}: ${row.event_id} (${row.status})`);
  }
  const goneHook = ledger.webhooks.find((w) => w.behaviour === 'gone');
  const [goneRow] = goneHook ? ((await db('webhooks').where({ id: goneHook.id }).select('enabled')) as { enabled: boolean | number }[]) : [];
  // A delivery another instance had already begun when the 410 came back may still arrive just after it.
  const late = gone.at === undefined ? [] : gone.arrivals.filter((t) => t > gone.at! + 2_000);
  return [
    {
      name: 'every change an event of each enabled webhook, every event delivered at least once',
      held: missing.length === 0 && events > 0,
      evidence: `${events} events to ${ledger.webhooks.length - (goneHook ? 1 : 0)} enabled webhooks${missing.length ? `; missing ${missing.length}: ${missing.slice(0, 5).join(', ')}` : ''}`,
    },
    {
      name: 'nothing sent to a webhook after it answered 410',
      held: gone.at !== undefined && !goneRow?.enabled && late.length === 0,
      evidence: gone.at !== undefined ? `410 answered at ${new Date(gone.at).toISOString()}; the webhook is ${goneRow?.enabled ? 'still on' : 'off'}; ${late.length} deliveries arrived more than 2 s later` : 'no delivery reached the 410 receiver',
    },
  ];
}

export async function feedMirrors(db: Knex, ledger: Ledger): Promise<Verdict> {
  const off: string[] = [];
  for (const mirror of ledger.mirrors) {
    const rows = (await db('tasks').where({ account_id: mirror.account }).select('id', 'version')) as { id: string; version: number }[];
    const stored = new Map(rows.map((row) => [row.id, Number(row.version)]));
    const wrong = [...stored].filter(([id, version]) => mirror.tasks.get(id) !== version).length + [...mirror.tasks.keys()].filter((id) => !stored.has(id)).length;
    if (wrong > 0) off.push(`${mirror.actor}: ${wrong} of ${stored.size} tasks differ`);
  }
  return {
    name: 'every change-feed mirror equals the database',
    held: off.length === 0 && ledger.mirrors.length > 0,
    evidence: `${ledger.mirrors.length} mirrors, ${ledger.mirrors.reduce((n, m) => n + m.tasks.size, 0)} tasks${off.length ? `; ${off.slice(0, 5).join('; ')}` : ''}`,
  };
}

export function lostUpdates(ledger: Ledger): Verdict {
  let writes = 0;
  const twice: string[] = [];
  for (const [task, versions] of ledger.conditionalWrites) {
    writes += versions.length;
    if (new Set(versions).size !== versions.length) twice.push(task);
  }
  return {
    name: 'no If-Match lost update (no two accepted writes of one task on the same version)',
    held: twice.length === 0,
    evidence: `${writes} accepted conditional writes on ${ledger.conditionalWrites.size} tasks${twice.length ? `; twice on one version: ${twice.slice(0, 5).join(', ')}` : ''}`,
  };
}

export interface Sample {
  t: number;
  instance: number;
  rssMb: number;
  /** The instance's start, to tell a restarted process from a grown one. */
  generation: number;
}

/** Each process's samples from the end of its own warm-up: a restarted instance warms up again. */
export function memoryFlat(samples: Sample[], warmUpEnds: number, warmUpMs: number): Verdict {
  const grown: string[] = [];
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    const key = `${sample.instance}/${sample.generation}`;
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  for (const [key, series] of groups) groups.set(key, series.filter((s) => s.t >= Math.max(warmUpEnds, series[0]!.t + warmUpMs)));
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  for (const [key, series] of groups) {
    if (series.length < 6) continue;
    const third = Math.floor(series.length / 3);
    const early = median(series.slice(0, third).map((s) => s.rssMb));
    const late = median(series.slice(-third).map((s) => s.rssMb));
    if (late > early * 1.25 + 10) grown.push(`instance ${key}: ${early.toFixed(0)} -> ${late.toFixed(0)} MB`);
  }
  return {
    name: 'each instance\'s memory flat after warm-up (late median within 25% + 10 MB of the early one)',
    held: grown.length === 0,
    evidence: `${groups.size} series, ${samples.length} samples${grown.length ? `; grew: ${grown.join(', ')}` : ''}; peak ${Math.max(0, ...samples.map((s) => s.rssMb)).toFixed(0)} MB`,
  };
}

export function connections(counts: number[], limits: Limits): Verdict {
  const most = Math.max(0, ...counts);
  const allowed = limits.instances * limits.poolMax;
  return { name: `PostgreSQL connections within the pools (${limits.instances} x ${limits.poolMax})`, held: most <= allowed, evidence: `at most ${most} connections seen in ${counts.length} samples` };
}

/**
 * SQLite, once the instance has stopped (and nothing else holds the file): the last connection's close
 * checkpoints the WAL into the database file and removes it, and the file passes SQLite's own check.
 */
export function sqliteFile(filename: string): Verdict[] {
  const wal = `${filename}-wal`;
  const walBytes = existsSync(wal) ? statSync(wal).size : 0;
  let integrity: string[];
  try {
    const file = new Database(filename, { readonly: true });
    try {
      integrity = (file.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } finally {
      file.close();
    }
  } catch (error) {
    // A file too damaged to read at all: SQLITE_CORRUPT, SQLITE_NOTADB.
    integrity = [`not readable: ${error instanceof Error ? error.message : String(error)}`];
  }
  return [
    { name: 'SQLite WAL checkpointed at shutdown', held: walBytes === 0, evidence: walBytes === 0 ? 'no WAL left after the instance stopped' : `${walBytes} bytes of WAL left after the instance stopped` },
    { name: 'SQLite integrity_check ok', held: integrity.length === 1 && integrity[0] === 'ok', evidence: integrity.slice(0, 3).join('; ') },
  ];
}
