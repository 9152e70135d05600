import { Histogram, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { REQUEST_DURATION_BUCKETS, REQUEST_DURATION_HELP as HELP, REQUEST_DURATION_NAME as NAME } from './metrics.js';
import type { OperationRoute } from './operation-table.js';
import { RequestDurations } from './request-durations.js';

// Two route objects of one operation count as one series, as prom-client counts by its labels alone.
const routes = [{ operationId: 'getMe' }, { operationId: 'listTasks' }, undefined, { operationId: 'getMe' }] as (OperationRoute | undefined)[];

/** Ours and prom-client's own Histogram, each in a registry of its own, given the same requests. */
function both() {
  const ours = new Registry();
  const durations = new RequestDurations(NAME, HELP, REQUEST_DURATION_BUCKETS);
  ours.registerMetric(durations as unknown as Metric);
  const theirs = new Registry();
  const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['operation', 'status'], buckets: REQUEST_DURATION_BUCKETS, registers: [theirs] });
  const observe = (route: OperationRoute | undefined, status: number, seconds: number) => {
    durations.observe(route, status, seconds);
    histogram.observe({ operation: route?.operationId ?? 'unmatched', status }, seconds);
  };
  return { ours, theirs, observe };
}

// Prometheus reads series in any order; ours are grouped by route, prom-client's by first appearance.
const lines = async (registry: Registry) => (await registry.metrics()).split('\n').sort();
const samples = async (registry: Registry) =>
  (await registry.getMetricsAsJSON())[0]!.values
    .map((sample) => JSON.stringify([(sample as { metricName?: string }).metricName, sample.labels, sample.value]))
    .sort();

describe('the request duration histogram', () => {
  it('is written as prom-client writes its own Histogram given the same requests', async () => {
    const { ours, theirs, observe } = both();
    expect(await lines(ours)).toEqual(await lines(theirs));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Exactly on every bound, above the last, and spread between, on routes and statuses in turn.
    const durations = [...REQUEST_DURATION_BUCKETS, 0, 12.5, ...Array.from({ length: 2000 }, () => random() ** 4 * 3)];
    durations.forEach((seconds, i) => observe(routes[i % 4], [200, 401, 429][Math.floor(i / 4) % 3]!, seconds));

    expect((await lines(ours)).length).toBeGreaterThan(9 * 16);
    expect(await lines(ours)).toEqual(await lines(theirs));
    expect(await samples(ours)).toEqual(await samples(theirs));
  });

  it('refuses a duration that is no number, as prom-client does, and keeps its sums', async () => {
    const { ours, theirs, observe } = both();
    observe(routes[0], 200, 0.003);
    for (const bad of [NaN, Infinity]) expect(() => observe(routes[0], 200, bad)).toThrow(TypeError);
    expect(await lines(ours)).toEqual(await lines(theirs));
  });

  it('starts again at a reset, as prom-client does', async () => {
    const { ours, theirs, observe } = both();
    observe(routes[0], 200, 0.003);
    ours.resetMetrics();
    theirs.resetMetrics();
    observe(routes[1], 201, 0.02);
    expect(await lines(ours)).toEqual(await lines(theirs));
    expect((await ours.metrics()).match(/_count\{/g)).toHaveLength(1);
  });
});
