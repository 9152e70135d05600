import { Counter, Gauge, type Metric } from 'prom-client';
import type { Plan } from './budgets.js';
import type { Decision } from './limiter.js';

export interface LimitsMetrics {
  readonly collectors: Metric[];
  /** One count per decision: allowed ones under the governing budget, rejected ones under the window that said no. */
  readonly recordDecision: (plan: Plan, decision: Decision) => void;
}

/** The limiter's counters and the store's state, registered by the app's /metrics registry. */
export function createLimitsMetrics(storeState: () => 'redis' | 'fallback' | 'memory'): LimitsMetrics {
  // Served decisions are tallied by budget here and added to the counter when it is read: prom-client's
  // `inc` hashes its labels object into a string key on every call, 0.9% of a GET /me's CPU
  // (bench/pipeline.bench.ts --profile), where a budget's name is a string whose hash V8 keeps.
  const allowedSinceRead = new Map<string, number>();
  const decisions = new Counter({
    name: 'task_service_rate_limit_decisions_total',
    help: 'Rate-limit decisions by budget, window (all when served: every window was spent) and outcome.',
    labelNames: ['budget', 'window', 'outcome'] as const,
    registers: [],
    collect() {
      for (const [budget, count] of allowedSinceRead) this.inc({ budget, window: 'all', outcome: 'allowed' }, count);
      allowedSinceRead.clear();
    },
  });
  const store = new Gauge({
    name: 'task_service_rate_limit_store',
    help: '1 for where rate limits are counted now: redis, fallback (Redis configured but unreachable: per process) or memory (no Redis configured).',
    labelNames: ['store'] as const,
    registers: [],
    collect() {
      const state = storeState();
      for (const name of ['redis', 'fallback', 'memory'] as const) this.set({ store: name }, name === state ? 1 : 0);
    },
  });
  return {
    collectors: [decisions, store],
    recordDecision: (plan, decision) => {
      if (decision.allowed) {
        const budget = plan.governing.budget.name;
        allowedSinceRead.set(budget, (allowedSinceRead.get(budget) ?? 0) + 1);
      } else {
        const [budget, window] = splitWindow(decision.rejectedBy);
        decisions.inc({ budget, window, outcome: 'rejected' });
      }
    },
  };
}

/** `client-burst` → [client, burst]. */
function splitWindow(name: string): [string, string] {
  const dash = name.lastIndexOf('-');
  return [name.slice(0, dash), name.slice(dash + 1)];
}
