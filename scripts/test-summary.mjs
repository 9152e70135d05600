// The test command's closing line: vitest's totals in the plain "N passed, N failed, N skipped" form
// that CI reads (vitest's own summary line is not one it knows). Reached only when every step passed.
import { readFileSync } from 'node:fs';

const results = JSON.parse(readFileSync(new URL('../.test-results/vitest.json', import.meta.url), 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
process.stdout.write(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
