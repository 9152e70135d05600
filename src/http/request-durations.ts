import type { OperationRoute } from './operation-table.js';

/** A sample as prom-client's registry writes it: `metricName{labels} value`. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** One operation and status: a count per bucket (not cumulative), the last for durations above every bound. */
interface Series {
  readonly operation: string;
  readonly status: number;
  readonly counts: Float64Array;
  sum: number;
}

/**
 * The request duration histogram, by operationId and status, answered to prom-client's registry
 * (`registerMetric`, then `metrics()`, `getMetricsAsJSON()`, `resetMetrics()`) as its own Histogram
 * would be: the same samples, written as the same lines (src/http/request-durations.test.ts compares
 * the two). Kept here because prom-client's `observe` builds a labels object and a hash string on
 * every call, a labelled child included; here a sample is a few array writes.
 */
export class RequestDurations {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private byOperation = new Map<string, Map<number, Series>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  /** A request of `route` (undefined: none matched) answered `status` after `seconds`. */
  observe(route: OperationRoute | undefined, status: number, seconds: number): void {
    // As prom-client's observe: a duration that is no number would spoil the series' sum for good.
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const operation = route?.operationId ?? 'unmatched';
    let byStatus = this.byOperation.get(operation);
    if (byStatus === undefined) this.byOperation.set(operation, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = { operation, status, counts: new Float64Array(this.upperBounds.length + 1), sum: 0 }));
    let bucket = 0;
    while (bucket < this.upperBounds.length && seconds > this.upperBounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
  }

  async get() {
    const values: Sample[] = [];
    for (const byStatus of this.byOperation.values()) {
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
    this.byOperation = new Map();
  }
}
