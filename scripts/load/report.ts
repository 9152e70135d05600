import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { FaultWindow, Verdict } from './invariants.js';
import type { Exchange } from './traffic.js';

const WIDTH = 900;
const HEIGHT = 220;
const MARGIN = { top: 16, right: 16, bottom: 28, left: 56 };
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface OperationFigures {
  op: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Per operation: requests, throughput over the run, p50 and p99 latency (ms) of the answered ones. */
export function figures(exchanges: Exchange[], seconds: number): OperationFigures[] {
  const byOp = new Map<string, number[]>();
  for (const e of exchanges) if (e.status > 0) byOp.set(e.op, [...(byOp.get(e.op) ?? []), e.t1 - e.t0]);
  return [...byOp]
    .map(([op, latencies]) => {
      const sorted = latencies.sort((a, b) => a - b);
      return { op, count: sorted.length, perSecond: sorted.length / seconds, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    })
    .sort((a, b) => b.count - a.count);
}

/** One chart: a line per series over the run's seconds, the fault windows shaded and named. */
function chart(title: string, series: { name: string; points: [number, number][] }[], start: number, end: number, windows: FaultWindow[], unit: string): string {
  const x = scaleLinear().domain([0, (end - start) / 1000]).range([MARGIN.left, WIDTH - MARGIN.right]);
  const top = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[1])));
  const y = scaleLinear().domain([0, top]).nice().range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const path = line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  const shades = windows
    .map((w) => {
      const from = x((w.start - start) / 1000);
      const to = Math.max(from + 2, x((w.end - start) / 1000));
      return `<rect x="${from}" y="${MARGIN.top}" width="${to - from}" height="${HEIGHT - MARGIN.top - MARGIN.bottom}" fill="#d62728" opacity="0.12"><title>${escape(w.kind)}</title></rect><text x="${from + 2}" y="${MARGIN.top + 10}" font-size="10" fill="#a00">${escape(w.kind)}</text>`;
    })
    .join('');
  const xTicks = x.ticks(10).map((t) => `<text x="${x(t)}" y="${HEIGHT - 8}" font-size="10" text-anchor="middle">${t}s</text>`).join('');
  const yTicks = y.ticks(5).map((t) => `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(t)}" y2="${y(t)}" stroke="#eee"/><text x="${MARGIN.left - 6}" y="${y(t) + 3}" font-size="10" text-anchor="end">${t}</text>`).join('');
  const lines = series.map((s, i) => `<path d="${path(s.points) ?? ''}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="1.5"><title>${escape(s.name)}</title></path>`).join('');
  const legend = series.map((s, i) => `<span style="color:${COLOURS[i % COLOURS.length]}">&#9632; ${escape(s.name)}</span>`).join(' ');
  return `<h3>${escape(title)} <small>(${unit})</small></h3><svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${escape(title)}">${yTicks}${shades}${lines}${xTicks}</svg><p class="legend">${legend}</p>`;
}

/** Per 5-second bucket: requests per second, and p50/p99 latency, of the busiest operations. */
function timeSeries(exchanges: Exchange[], ops: string[], start: number, pick: 'rate' | 'p50' | 'p99') {
  const bucketMs = 5_000;
  return ops.map((op) => {
    const buckets = new Map<number, number[]>();
    for (const e of exchanges) {
      if (e.op !== op || e.status === 0) continue;
      const bucket = Math.floor((e.t0 - start) / bucketMs);
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), e.t1 - e.t0]);
    }
    const points = [...buckets]
      .sort((a, b) => a[0] - b[0])
      .map(([bucket, latencies]): [number, number] => {
        const sorted = latencies.sort((a, b) => a - b);
        const value = pick === 'rate' ? sorted.length / (bucketMs / 1000) : quantile(sorted, pick === 'p50' ? 0.5 : 0.99);
        return [((bucket + 0.5) * bucketMs) / 1000, value];
      });
    return { name: op, points };
  });
}

export function renderReport(run: { title: string; start: number; end: number; exchanges: Exchange[]; windows: FaultWindow[]; verdicts: Verdict[]; settings: Record<string, string | number>; memory: { name: string; points: [number, number][] }[] }): string {
  const seconds = (run.end - run.start) / 1000;
  const table = figures(run.exchanges, seconds);
  const busiest = table.slice(0, 8).map((row) => row.op);
  const statuses = new Map<string, number>();
  for (const e of run.exchanges) statuses.set(String(e.status || 'no answer'), (statuses.get(String(e.status || 'no answer')) ?? 0) + 1);
  const verdictRows = run.verdicts.map((v) => `<tr class="${v.held ? 'held' : 'broken'}"><td>${v.held ? 'held' : 'BROKEN'}</td><td>${escape(v.name)}</td><td>${escape(v.evidence)}</td></tr>`).join('');
  const opRows = table.map((row) => `<tr><td>${escape(row.op)}</td><td>${row.count}</td><td>${row.perSecond.toFixed(1)}</td><td>${row.p50}</td><td>${row.p99}</td></tr>`).join('');
  const windowRows = run.windows.map((w) => `<tr><td>${escape(w.kind)}</td><td>${((w.start - run.start) / 1000).toFixed(1)} s</td><td>${((w.end - w.start) / 1000).toFixed(1)} s</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(run.title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#222}table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}tr.held td:first-child{color:#2a7a2a;font-weight:600}tr.broken td:first-child{color:#c00;font-weight:700}.legend{font-size:12px}small{color:#666}</style></head><body>
<h1>${escape(run.title)}</h1>
<p>${run.exchanges.length} requests in ${seconds.toFixed(0)} s (${(run.exchanges.length / seconds).toFixed(1)} per second over all instances); statuses: ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}.</p>
<h2>Invariants</h2><table><tr><th></th><th>Invariant</th><th>Evidence</th></tr>${verdictRows}</table>
<h2>Faults</h2><table><tr><th>Fault</th><th>From</th><th>For</th></tr>${windowRows}</table>
<h2>Over time</h2>
${chart('Requests per second, busiest operations', timeSeries(run.exchanges, busiest, run.start, 'rate'), run.start, run.end, run.windows, 'req/s')}
${chart('p50 latency', timeSeries(run.exchanges, busiest, run.start, 'p50'), run.start, run.end, run.windows, 'ms')}
${chart('p99 latency', timeSeries(run.exchanges, busiest, run.start, 'p99'), run.start, run.end, run.windows, 'ms')}
${chart('Resident memory per instance', run.memory, run.start, run.end, run.windows, 'MB')}
<h2>Per operation</h2><table><tr><th>Operation</th><th>Requests</th><th>per s</th><th>p50 ms</th><th>p99 ms</th></tr>${opRows}</table>
<h2>Settings</h2><table>${Object.entries(run.settings).map(([k, v]) => `<tr><td>${escape(k)}</td><td>${escape(String(v))}</td></tr>`).join('')}</table>
</body></html>
`;
}
