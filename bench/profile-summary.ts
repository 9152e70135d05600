// Where a V8 CPU profile's time goes: self time by package or source file, time inclusive of what
// each one calls, and the costliest functions. Used by `bench/pipeline.bench.ts --profile`, or alone:
// node --import tsx bench/profile-summary.ts <file.cpuprofile>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** The main thread's profile in a --cpu-prof-dir (tsx's loader thread writes one of its own beside it): CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile. */
export function mainThreadProfile(profileDir: string): string {
  const file = readdirSync(profileDir).find((entry) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(entry));
  if (!file) throw new Error(`No main-thread profile in ${profileDir}`);
  return join(profileDir, file);
}

/** A package (`knex`, `express`), a file of ours (`src/auth/identify-caller.ts`), node's own code, or V8's pseudo-frames. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const ours = /\/((?:src|bench|generated)\/.+)$/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith('node:') ? 'node:' + url.slice(5).split('/')[0] : url;
}

/** `fromUs`: only the samples V8 stamped at or after this time (its monotonic clock, µs), to leave out the start-up. */
export function summariseProfile(file: string, { top = 25, fromUs = 0 }: { top?: number; fromUs?: number } = {}): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; startTime: number; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let counted = 0;
  let stampUs = profile.startTime;
  for (const [i, sample] of profile.samples.entries()) {
    stampUs += profile.timeDeltas[i] ?? 0;
    if (stampUs < fromUs) continue;
    counted++;
    const node = byId.get(sample)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy++;
    const place = placeOf(node.callFrame.url, node.callFrame.functionName);
    self.set(place, (self.get(place) ?? 0) + 1);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${place}:${node.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const at = placeOf(frame.url, frame.functionName);
      if (!seen.has(at)) {
        seen.add(at);
        inclusive.set(at, (inclusive.get(at) ?? 0) + 1);
      }
    }
  }
  const pct = (n: number) => `${((100 * n) / busy).toFixed(1)}%`.padStart(7);
  const list = (title: string, counts: Map<string, number>) =>
    `${title}\n${[...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => `${pct(n)}  ${name}`)
      .join('\n')}\n`;
  return [
    `${busy} busy samples of ${counted} (the rest idle); shares of the busy ones\n`,
    list('self time by place:', self),
    list('inclusive (the place and what it calls):', inclusive),
    list('self time by function:', functions),
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  process.stdout.write(summariseProfile(process.argv[2]!, { fromUs: Number(process.argv[3] ?? 0) }));
}
