// The test command's closing line: vitest's totals, with the Python SDK's pytest totals and the production day's invariants folded in, in the
// plain "N passed, N failed, N skipped" form that CI reads (neither tool's own summary line is one it knows).
// Reached only when every step passed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
// vitest.json: every test but those measured alone, which a second run writes to vitest-measured-alone.json (vitest.config.ts).
for (const name of ['vitest.json', 'vitest-measured-alone.json']) {
  const results = JSON.parse(readFileSync(new URL(`../.test-results/${name}`, import.meta.url), 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  skipped += results.numPendingTests + results.numTodoTests;
}

// scripts/python/test.sh writes it (JUnit XML, one <testsuite> per run); absent when that step skipped.
const pytestResults = new URL('../.test-results/pytest.xml', import.meta.url);
if (existsSync(pytestResults)) {
  const xml = readFileSync(pytestResults, 'utf8');
  for (const [, attributes] of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(attributes)?.[1] ?? 0);
    const suiteFailed = count('failures') + count('errors');
    const suiteSkipped = count('skipped');
    passed += count('tests') - suiteFailed - suiteSkipped;
    failed += suiteFailed;
    skipped += suiteSkipped;
  }
}
// scripts/load/production-day.ts --ci writes one per engine: each invariant of the short production day as one test.
const resultsDir = new URL('../.test-results/', import.meta.url);
for (const name of existsSync(resultsDir) ? readdirSync(resultsDir) : []) {
  if (!/^production-day-[a-z]+\.json$/.test(name)) continue;
  const day = JSON.parse(readFileSync(new URL(name, resultsDir), 'utf8'));
  passed += day.passed;
  failed += day.failed;
}
process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
