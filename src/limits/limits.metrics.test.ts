import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Plan } from './budgets.js';
import type { Decision } from './limiter.js';
import { createLimitsMetrics } from './limits.metrics.js';

const planOf = (budget: string) => ({ governing: { budget: { name: budget } } }) as unknown as Plan;
const allowed = { allowed: true } as unknown as Decision;
const rejected = (by: string) => ({ allowed: false, rejectedBy: by }) as unknown as Decision;

async function decisionsIn(registry: Registry): Promise<Record<string, number>> {
  const [metric] = await registry.getMetricsAsJSON();
  return Object.fromEntries(metric!.values.map(({ labels, value }) => [`${labels.budget}/${labels.window}/${labels.outcome}`, value]));
}

describe('the rate-limit decision counter', () => {
  it('counts every decision, those made between two reads and after the last one included', async () => {
    const metrics = createLimitsMetrics(() => 'memory');
    const registry = new Registry();
    registry.registerMetric(metrics.collectors[0]!);
    for (let i = 0; i < 3; i++) metrics.recordDecision(planOf('account'), allowed);
    metrics.recordDecision(planOf('strict'), allowed);
    metrics.recordDecision(planOf('account'), rejected('account-burst'));
    expect(await decisionsIn(registry)).toEqual({ 'account/all/allowed': 3, 'strict/all/allowed': 1, 'account/burst/rejected': 1 });

    for (let i = 0; i < 2; i++) metrics.recordDecision(planOf('account'), allowed);
    metrics.recordDecision(planOf('client'), rejected('client-sustained'));
    expect(await decisionsIn(registry)).toEqual({ 'account/all/allowed': 5, 'strict/all/allowed': 1, 'account/burst/rejected': 1, 'client/sustained/rejected': 1 });
    expect(await decisionsIn(registry)).toEqual({ 'account/all/allowed': 5, 'strict/all/allowed': 1, 'account/burst/rejected': 1, 'client/sustained/rejected': 1 });
  });
});
