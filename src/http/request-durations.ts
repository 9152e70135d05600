import type { OperationRoute } from './operation-table.js';

/** A sample as prom-client's registry writes it: `metricName{labels} value`. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * What prom-client's registry reads of a metric it writes (`registerMetric`, then `metrics()`,
 * `getMetricsAsJSON()`, `resetMetrics()`): its name, and `get()` in the shape of its own metrics' answers.
 */
export interface RegistryMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[] }>;
  reset(): void;
}

/**
 * The request duration histogram, by operationId and status, answered to prom-client's registry as its
 * own Histogram would be (the same series, the same text: src/http/request-durations.test.ts compares
 * the two). Kept here because prom-client's `observe` builds a labels object and a hash string on
 * every call, a labelled child included: about 0.45 µs of every request, against a few array writes
 * here, found by the route object and the status (bench/pipeline.bench.ts, docs/benchmarks.md#pipeline).
 */
export class RequestDurations implements RegistryMetric {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private byRoute = new Map<OperationRoute | undefined, Map<number, Series>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  observe(route: OperationRoute | undefined, status: number, seconds: number): void {
    let byStatus = this.byRoute.get(route);
    if (byStatus === undefined) this.byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = new Series(route?.operationId ?? 'unmatched', status, this.upperBounds.length)));
    let bucket = 0;
    while (bucket < this.upperBounds.length && seconds > this.upperBounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
  }

  async get(): ReturnType<RegistryMetric['get']> {
    const values: Sample[] = [];
    for (const byStatus of this.byRoute.values()) {
      for (const { operation, status, counts, sum } of byStatus.values()) {
        let cumulative = 0;
        for (let i = 0; i <= this.upperBounds.length; i++) {
          cumulative += counts[i]!;
          const le = i < this.upperBounds.length ? this.upperBounds[i]! : '+Inf';
          values.push({ labels: { le, operation, status }, value: cumulative, metricName: `${this.name}_bucket` });
        }
        values.push({ labels: { operation, status }, value: sum, metricName: `${this.name}_sum` });
        values.push({ labels: { operation, status }, value: cumulative, metricName: `${this.name}_count` });
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.byRoute = new Map();
  }
}

class Series {
  /** One count per bucket (not cumulative), the last for durations above every bound. */
  readonly counts: Float64Array;
  sum = 0;

  constructor(
    readonly operation: string,
    readonly status: number,
    bounds: number,
  ) {
    this.counts = new Float64Array(bounds + 1);
  }
}
