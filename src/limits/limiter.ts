import { windowName, type Charge, type Plan, type WindowKind, type WindowName } from './budgets.js';
import type { RateLimitStore, WindowCharge } from './store.js';

export interface WindowState {
  readonly name: WindowName;
  readonly limit: number;
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

/** Fixed windows aligned to UTC minutes and hours; one atomic check-and-spend over all of them. */
export class Limiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async spend(plan: Plan): Promise<Decision> {
    const now = this.clock();
    const windows = windowsOf(plan, now);
    const { allowed, counts } = await this.store.spend(windows, now);
    const states = windows.map((window, i) => stateOf(window, counts[i] ?? 0, now));
    const governing = { burst: states[0]!, sustained: states[1]! };
    const client = plan.client ? { burst: states[2]!, sustained: states[3]! } : undefined;
    if (allowed) return { allowed, governing, client };

    let latest: PlannedWindow | undefined;
    windows.forEach((window, i) => {
      const exhausted = (counts[i] ?? 0) >= window.limit;
      if (exhausted && (latest === undefined || window.endsAt > latest.endsAt)) latest = window;
    });
    // The store said no, so some window is exhausted; the fallback only guards a broken store.
    const rejectedBy = latest ?? windows[0]!;
    return { allowed, governing, client, retryAfterSeconds: secondsUntil(rejectedBy.endsAt, now), rejectedBy: rejectedBy.name };
  }

  /** The windows of a plan as they stand, spending nothing. */
  async peek(plan: Plan): Promise<{ governing: BudgetState; client?: BudgetState }> {
    const now = this.clock();
    const windows = windowsOf(plan, now);
    const counts = await this.store.peek(windows, now);
    const states = windows.map((window, i) => stateOf(window, counts[i] ?? 0, now));
    return {
      governing: { burst: states[0]!, sustained: states[1]! },
      client: plan.client ? { burst: states[2]!, sustained: states[3]! } : undefined,
    };
  }
}

function windowsOf(plan: Plan, now: number): PlannedWindow[] {
  const windows = chargeWindows(plan.governing, now);
  if (plan.client) windows.push(...chargeWindows(plan.client, now));
  return windows;
}

function chargeWindows({ budget, subject }: Charge, now: number): PlannedWindow[] {
  return KINDS.map((kind) => {
    const windowMs = WINDOW_MS[kind];
    const index = Math.floor(now / windowMs);
    return {
      name: windowName(budget.name, kind),
      // The window's index is in the key, so a window that ended can never be counted again.
      key: `${budget.name}:${subject}:${kind[0]}${index}`,
      limit: budget[kind],
      endsAt: (index + 1) * windowMs,
      windowMs,
    };
  });
}

function stateOf(window: PlannedWindow, count: number, now: number): WindowState {
  return {
    name: window.name,
    limit: window.limit,
    remaining: Math.max(0, window.limit - count),
    resetSeconds: Math.min(window.windowMs / 1000, secondsUntil(window.endsAt, now)),
  };
}

const secondsUntil = (endsAt: number, now: number) => Math.max(1, Math.ceil((endsAt - now) / 1000));
