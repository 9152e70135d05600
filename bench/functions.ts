// Where a request's instructions go, function by function: the dumps a counted bench wrote with
// BENCH_COUNT_FUNCTIONS=<dir> (bench/instructions.ts), read back. Totals per request move with the
// compiler's tiers and the collector (docs/benchmarks.md#pipeline); a function's own count is what
// tells two requests, or a change, apart.
//
//   node --import tsx bench/functions.ts <dir> [<label> [<other label>]] [--top=N] [--callers=<text>]
//
// One label: its functions by own instructions per request. Two: both, by their difference; a label
// written <other dir>#<label> is read from another run's dumps (before and after a change).
// Without a label: the labels the dumps hold. --callers=<text>: instead of functions, the calls of
// every function whose name holds <text>, by caller, with what they cost (the callee and all it called):
// who reaches V8's generic paths (`--callers=Builtins_LoadIC`), say.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Own (exclusive) instructions per function, and the units of work (requests) they were counted over. */
export interface FunctionCounts {
  units: number;
  byFunction: Map<string, number>;
  /**
   * Compiled JavaScript's own instructions by V8's tier: a round whose code ran in the baseline tier
   * (deoptimised and not yet optimised again) counts tens of thousands more per request, and says so here.
   */
  byTier: Map<string, number>;
  /** What each call cost, the callee's own and everything it called: by `callee <- caller`. */
  calls: Map<string, number>;
}

const CHECKOUT_PATH = /(?:file:\/\/)?\/\S*?\/(dist-bench|node_modules)\//g;

const TIERS: Record<string, string> = { '~': 'interpreted', '^': 'baseline', '+': 'maglev', '*': 'optimized' };

/**
 * Every dump under `dir`, main thread only, summed by label. A dump's label is what
 * `instructionsDuring` asked callgrind to dump under: `<label>:<units>`.
 */
export function readDumps(dir: string, perfMapDir = '/tmp'): Map<string, FunctionCounts> {
  const byLabel = new Map<string, FunctionCounts>();
  const jitNames = new Map<string, (address: number) => string | undefined>();
  for (const file of readdirSync(dir)) {
    // callgrind.out.<pid>.<dump>-<thread>: thread 01 is the main thread.
    const match = /^callgrind\.out\.(\d+)\.\d+-(\d+)$/.exec(file);
    if (match === null || Number(match[2]) !== 1) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const trigger = /^desc: Trigger: Client Request: (.+):(\d+)$/m.exec(text) ?? /^desc: Trigger: dump (.+):(\d+)$/m.exec(text);
    if (trigger === null) continue;
    const pid = match[1]!;
    if (!jitNames.has(pid)) jitNames.set(pid, perfMap(join(perfMapDir, `perf-${pid}.map`)));
    const counts = byLabel.get(trigger[1]!) ?? { units: 0, byFunction: new Map(), byTier: new Map(), calls: new Map() };
    counts.units += Number(trigger[2]);
    const { own: owned, calls } = instructionsOf(text, jitNames.get(pid)!);
    for (const [name, own] of owned) {
      const key = keyOf(name);
      counts.byFunction.set(key, (counts.byFunction.get(key) ?? 0) + own);
      // "JS:*name file:line:col": the tier mark (~ interpreted, ^ baseline, + maglev, * optimized) counted apart, then left out so a function's tiers add up.
      const tier = /^(?:JS|LazyCompile|Function):([~^+*]?)/.exec(name);
      if (tier !== null) {
        const tierName = TIERS[tier[1]!] ?? 'unmarked';
        counts.byTier.set(tierName, (counts.byTier.get(tierName) ?? 0) + own);
      }
    }
    for (const [[callee, caller], cost] of calls) {
      const key = `${keyOf(callee)} <- ${keyOf(caller)}`;
      counts.calls.set(key, (counts.calls.get(key) ?? 0) + cost);
    }
    byLabel.set(trigger[1]!, counts);
  }
  return byLabel;
}

/** A function's name without its tier mark, with paths from the checkout on: two checkouts' runs (before and after a change) name the same functions alike. */
const keyOf = (name: string) => name.replace(/^(JS|LazyCompile|Function):[~^+*]?/, 'JS:').replace(CHECKOUT_PATH, '$1/');

/**
 * Each function's own instructions in one callgrind file: the cost lines under its `fn=`, less the
 * line after each `calls=` (what the call cost, counted again under the callee), and that line by
 * callee and caller. Names are given once as `(id) name` and then as `(id)`; code V8 compiled has an
 * address for a name, looked up in node's perf map (`--perf-basic-prof`).
 */
function instructionsOf(text: string, jitName: (address: number) => string | undefined): { own: Map<string, number>; calls: Map<[string, string], number> } {
  const names = new Map<string, string>();
  const own = new Map<string, number>();
  const callCosts = new Map<string, number>();
  let current = '';
  let callee = '';
  let skipNext = false;
  const nameOf = (spec: string) => {
    const [, id, name] = /^(\(\d+\))?\s*(.*)$/.exec(spec)!;
    if (id !== undefined && name) names.set(id, name);
    const written = id === undefined ? name! : (names.get(id) ?? id);
    if (!written.startsWith('0x')) return written;
    return jitName(Number.parseInt(written, 16)) ?? 'JIT code (not in the perf map)';
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) current = nameOf(line.slice(3));
    else if (line.startsWith('cfn=')) callee = nameOf(line.slice(4));
    else if (line.startsWith('calls=')) skipNext = true;
    else if (/^[\d+*-]/.test(line)) {
      const cost = Number(line.split(' ')[1] ?? 0);
      if (!skipNext) own.set(current, (own.get(current) ?? 0) + cost);
      else {
        skipNext = false;
        const key = `${callee}\n${current}`;
        callCosts.set(key, (callCosts.get(key) ?? 0) + cost);
      }
    }
  }
  const calls = new Map<[string, string], number>();
  for (const [key, cost] of callCosts) calls.set(key.split('\n') as [string, string], cost);
  return { own, calls };
}

/** node's /tmp/perf-<pid>.map: address → the name of the code there (a later entry for a reused address wins). */
function perfMap(file: string): (address: number) => string | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return () => undefined;
  }
  const entries = lines
    .map((line, order) => {
      const [start, size, ...name] = line.split(' ');
      return { start: Number.parseInt(start!, 16), end: Number.parseInt(start!, 16) + Number.parseInt(size!, 16), name: name.join(' '), order };
    })
    .filter((entry) => Number.isFinite(entry.end));
  const named = new Map<number, string | undefined>();
  return (address) => {
    if (named.has(address)) return named.get(address);
    let found: (typeof entries)[number] | undefined;
    for (const entry of entries) if (entry.start <= address && address < entry.end && (found === undefined || entry.order > found.order)) found = entry;
    named.set(address, found?.name);
    return found?.name;
  };
}

/** The table: per request, one label's functions, or two labels' side by side by their difference. */
export function functionTable(a: [string, FunctionCounts], b: [string, FunctionCounts] | undefined, top: number): string {
  const perUnit = ({ units, byFunction }: FunctionCounts, name: string) => (byFunction.get(name) ?? 0) / units;
  const total = ({ units, byFunction }: FunctionCounts) => [...byFunction.values()].reduce((s, v) => s + v, 0) / units;
  const names = new Set([...a[1].byFunction.keys(), ...(b?.[1].byFunction.keys() ?? [])]);
  const key = (name: string) => (b === undefined ? perUnit(a[1], name) : Math.abs(perUnit(a[1], name) - perUnit(b[1], name)));
  const rows = [...names].sort((x, y) => key(y) - key(x)).slice(0, top);
  const n = (value: number) => Math.round(value).toLocaleString('en').padStart(10);
  const tiers = ([label, counts]: [string, FunctionCounts]) =>
    `  ${label}: compiled JavaScript's own by tier: ${[...counts.byTier].map(([tier, own]) => `${tier} ${Math.round(own / counts.units).toLocaleString('en')}`).join(', ')}\n`;
  const out = [
    b === undefined
      ? `${a[0]}: ${n(total(a[1]))} own instructions per request (${a[1].units} requests), main thread\n`
      : `${a[0]} ${n(total(a[1]))} - ${b[0]} ${n(total(b[1]))} = ${n(total(a[1]) - total(b[1]))} instructions per request, main thread\n`,
    tiers(a),
    ...(b === undefined ? [] : [tiers(b)]),
  ];
  for (const name of rows) {
    const cells = b === undefined ? n(perUnit(a[1], name)) : `${n(perUnit(a[1], name))}${n(perUnit(b[1], name))}${n(perUnit(a[1], name) - perUnit(b[1], name))}`;
    out.push(`${cells}  ${name.slice(0, 140)}\n`);
  }
  return out.join('');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const top = Number(process.argv.find((arg) => arg.startsWith('--top='))?.slice(6) ?? 40);
  const callers = process.argv.find((arg) => arg.startsWith('--callers='))?.slice(10);
  const [dir, first, second] = args;
  if (dir === undefined) throw new Error('usage: node --import tsx bench/functions.ts <dir> [<label> [<other label>]] [--top=N]');
  const counts = (label: string): [string, FunctionCounts] => {
    // `<other dir>#<label>`: a label of another run's dumps (the commit before a change, say).
    const [from, name] = label.includes('#') ? (label.split('#') as [string, string]) : [dir, label];
    const dumps = readDumps(from);
    const found = dumps.get(name);
    if (found === undefined) throw new Error(`no dump labelled ${name} in ${from}; there are: ${[...dumps.keys()].join(', ')}`);
    if (callers === undefined) return [label, found];
    const ofCallee = [...found.calls].filter(([key]) => key.split(' <- ')[0]!.includes(callers));
    return [label, { ...found, byFunction: new Map(ofCallee) }];
  };
  if (first === undefined) for (const [label, { units }] of readDumps(dir)) process.stdout.write(`${label} (${units} requests)\n`);
  else process.stdout.write(functionTable(counts(first), second === undefined ? undefined : counts(second), top));
}
