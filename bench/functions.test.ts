import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { functionTable, readDumps } from './functions.js';

// A dump in callgrind's format as valgrind 3.19 writes it: names given once as "(id) name" and then
// as "(id)", a call's inclusive cost on the line after its calls=, code without symbols as an address.
const dump = (label: string, units: number, mainCost: number) => `# callgrind format
version: 1
pid: 4242
desc: Trigger: dump ${label}:${units}
positions: line
events: Ir

ob=(1) /usr/bin/node
fl=(1) ???
fn=(1) v8::internal::String::ComputeAndSetRawHash()
0 ${mainCost}
fn=(2) 0x0000000000001010
0 300
cob=(1)
cfi=(1)
cfn=(1)
calls=2 0
0 5000
+2 100
fn=(3) 0x0000000000002004
* 40
fn=(1)
0 10
`;

describe('bench/functions.ts: own instructions per request from callgrind dumps', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sums each function of the main thread by label, leaves out calls, and names compiled code from the perf map', () => {
    dir = mkdtempSync(join(tmpdir(), 'functions-test-'));
    writeFileSync(join(dir, 'callgrind.out.4242.1-01'), dump('sqlite/poll', 10, 1000));
    writeFileSync(join(dir, 'callgrind.out.4242.2-01'), dump('sqlite/poll', 10, 3000));
    writeFileSync(join(dir, 'callgrind.out.4242.3-01'), dump('sqlite/me', 20, 500));
    // Another thread's dump and the whole run's file at exit are not counted.
    writeFileSync(join(dir, 'callgrind.out.4242.1-02'), dump('sqlite/poll', 10, 1_000_000));
    writeFileSync(join(dir, 'callgrind.out.4242'), dump('sqlite/poll', 10, 1_000_000));
    // The second entry for 0x1000 is newer code at the same address: it names the function.
    writeFileSync(join(dir, 'perf-4242.map'), '1000 40 JS:~old a.js:1:1\n1000 40 JS:*handle file:///work/a/dist-bench/src/a.js:2:3\n2000 10 Builtin:Add\n');

    const dumps = readDumps(dir, dir);
    expect([...dumps.keys()].sort()).toEqual(['sqlite/me', 'sqlite/poll']);
    const poll = dumps.get('sqlite/poll')!;
    expect(poll.units).toBe(20);
    expect(Object.fromEntries(poll.byFunction)).toEqual({
      'v8::internal::String::ComputeAndSetRawHash()': 1000 + 10 + 3000 + 10,
      'JS:handle dist-bench/src/a.js:2:3': 800,
      'Builtin:Add': 80,
    });
    expect(Object.fromEntries(poll.byTier)).toEqual({ optimized: 800 });
    const table = functionTable(['sqlite/poll', poll], ['sqlite/me', dumps.get('sqlite/me')!], 10);
    expect(table).toContain("sqlite/poll: compiled JavaScript's own by tier: optimized 40");
    // Per request: hash (4020 / 20 = 201) against (510 / 20 = 25.5); handle 40 against 20.
    expect(table).toMatch(/^\s+201\s+26\s+176\s+v8::internal::String::ComputeAndSetRawHash/m);
    expect(table).toMatch(/^\s+40\s+20\s+20\s+JS:handle dist-bench\/src\/a\.js:2:3$/m);
    // Each call's cost (the line after calls=), by callee and caller: 5000 in each of the two dumps.
    expect(Object.fromEntries(poll.calls)).toEqual({ 'v8::internal::String::ComputeAndSetRawHash() <- JS:handle dist-bench/src/a.js:2:3': 10_000 });
  });
});
