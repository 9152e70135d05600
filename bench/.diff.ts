import { readFileSync } from 'node:fs';
import { placeOf } from './profile-summary.js';
const [onFile, onReqs, offFile, offReqs] = process.argv.slice(2);
function selfUs(file: string) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n: any) => [n.id, n]));
  const m = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const n: any = byId.get(p.samples[i]);
    if (n.callFrame.functionName === '(idle)') continue;
    const k = `${n.callFrame.functionName || '(anon)'} ${placeOf(n.callFrame.url, n.callFrame.functionName)}:${n.callFrame.lineNumber}`;
    m.set(k, (m.get(k) ?? 0) + p.timeDeltas[i]);
  }
  return m;
}
const on = selfUs(onFile!), off = selfUs(offFile!);
const rOn = Number(onReqs), rOff = Number(offReqs);
const keys = new Set([...on.keys(), ...off.keys()]);
const rows = [...keys].map((k) => [k, (on.get(k) ?? 0) / rOn - (off.get(k) ?? 0) / rOff] as const).sort((a, b) => b[1] - a[1]);
let total = 0; for (const [, d] of rows) total += d;
console.log('total µs/request diff', total.toFixed(2), 'on', ([...on.values()].reduce((a, b) => a + b, 0) / rOn).toFixed(1), 'off', ([...off.values()].reduce((a, b) => a + b, 0) / rOff).toFixed(1));
for (const [k, d] of rows.slice(0, 30)) console.log(d.toFixed(2).padStart(7), k);
console.log('...');
for (const [k, d] of rows.slice(-8)) console.log(d.toFixed(2).padStart(7), k);
