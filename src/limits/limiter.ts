import { windowName, type Charge, type Plan, type WindowKind, type WindowName } from './budgets.js';
import type { RateLimitStore, WindowCharge } from './store.js';

export interface WindowState {
  readonly name: WindowName;
  readonly limit: number;
  /** The window's length: 60 for burst, 3600 for sustained. */
  readonly windowSeconds: number;
  /** After this request when it was served; as it stands when it was rejected. */
  readonly remaining: number;
  /** Whole seconds until the window rolls over: 1 to the window length. */
  readonly resetSeconds: number;
}

export interface BudgetState {
  readonly burst: WindowState;
  readonly sustained: WindowState;
}

export type Decision =
  | { readonly allowed: true; readonly governing: BudgetState; readonly client?: BudgetState }
  | {
      readonly allowed: false;
      readonly governing: BudgetState;
      readonly client?: BudgetState;
      /** Whole seconds until every exhausted window has budget again. */
      readonly retryAfterSeconds: number;
      /** The exhausted window that frees last (the governing budget's on a tie). */
      readonly rejectedBy: WindowName;
    };

const WINDOW_MS: Readonly<Record<WindowKind, number>> = { burst: 60_000, sustained: 3_600_000 };
const KINDS: readonly WindowKind[] = ['burst', 'sustained'];

interface PlannedWindow extends WindowCharge {
  readonly name: WindowName;
  readonly windowMs: number;
}

/** A plan's windows as made within one minute (every hour begins with a minute: the sustained windows are made again too). */
interface PlannedWindows {
  readonly minute: number;
  readonly windows: readonly PlannedWindow[];
}

/** Fixed windows aligned to UTC minutes and hours; one atomic check-and-spend over all of them. */
export class Limiter {
  /**
   * A caller's plan is made once (src/limits/request-plan.ts), so its windows are kept until the minute
   * is over and their keys are built once, not for every request (docs/benchmarks.md#pipeline).
   */
  private readonly planned = new WeakMap<Plan, PlannedWindows>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async spend(plan: Plan): Promise<Decision> {
    const now = this.clock();
    const windows = this.windowsOf(plan, now);
    const { allowed, counts } = await this.store.spend(windows, now);
    const { governing, client } = statesOf(windows, counts, now);
    if (allowed) return { allowed, governing, client };

    let latest: PlannedWindow | undefined;
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i]!;
      const exhausted = (counts[i] ?? 0) >= window.limit;
      if (exhausted && (latest === undefined || window.endsAt > latest.endsAt)) latest = window;
    }
    // The store said no, so some window is exhausted; the fallback only guards a broken store.
    const rejectedBy = latest ?? windows[0]!;
    return { allowed, governing, client, retryAfterSeconds: secondsUntil(rejectedBy.endsAt, now), rejectedBy: rejectedBy.name };
  }

  /** The windows of a plan as they stand, spending nothing. */
  async peek(plan: Plan): Promise<{ governing: BudgetState; client?: BudgetState }> {
    const now = this.clock();
    const windows = this.windowsOf(plan, now);
    return statesOf(windows, await this.store.peek(windows, now), now);
  }

  private windowsOf(plan: Plan, now: number): readonly PlannedWindow[] {
    const minute = Math.floor(now / WINDOW_MS.burst);
    const kept = this.planned.get(plan);
    if (kept !== undefined && kept.minute === minute) return kept.windows;
    const windows = windowsOf(plan, now);
    this.planned.set(plan, { minute, windows });
    return windows;
  }
}

// Plain loops below, not array callbacks: these run on every request.

/**
 * Governing burst, governing sustained, then the client's burst and sustained when there is a client.
 * Every key of one decision starts with the same hash tag, the governing subject (the account, or
 * the endpoint and address of a sign-in budget): in a Redis Cluster they share a slot, so the one
 * script still runs on one node in one round trip, and different accounts spread over the nodes.
 */
function windowsOf(plan: Plan, now: number): PlannedWindow[] {
  const windows: PlannedWindow[] = [];
  const tag = `{${plan.governing.subject}}`;
  addWindows(windows, tag, plan.governing, now);
  if (plan.client) addWindows(windows, tag, plan.client, now);
  return windows;
}

function addWindows(windows: PlannedWindow[], tag: string, { budget, subject }: Charge, now: number): void {
  for (const kind of KINDS) {
    const windowMs = WINDOW_MS[kind];
    const index = Math.floor(now / windowMs);
    windows.push({
      name: windowName(budget.name, kind),
      // The window's index is in the key, so a window that ended can never be counted again.
      key: `${tag}${budget.name}:${subject}:${kind[0]}${index}`,
      limit: budget[kind],
      endsAt: (index + 1) * windowMs,
      windowMs,
    });
  }
}

function statesOf(windows: readonly PlannedWindow[], counts: readonly number[], now: number): { governing: BudgetState; client?: BudgetState } {
  const governing = { burst: stateOf(windows[0]!, counts[0], now), sustained: stateOf(windows[1]!, counts[1], now) };
  if (windows.length < 4) return { governing };
  return { governing, client: { burst: stateOf(windows[2]!, counts[2], now), sustained: stateOf(windows[3]!, counts[3], now) } };
}

function stateOf(window: PlannedWindow, count: number | undefined, now: number): WindowState {
  return {
    name: window.name,
    limit: window.limit,
    windowSeconds: window.windowMs / 1000,
    remaining: Math.max(0, window.limit - (count ?? 0)),
    resetSeconds: Math.min(window.windowMs / 1000, secondsUntil(window.endsAt, now)),
  };
}

const secondsUntil = (endsAt: number, now: number) => Math.max(1, Math.ceil((endsAt - now) / 1000));
