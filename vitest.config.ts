import { configDefaults, defineConfig } from 'vitest/config';

/** Timed in a browser, so measured with nothing else running: the test command runs it alone, after the rest. */
const MEASURED_ALONE = ['contract-tests/clients/web-lighthouse.test.ts'];

const contract = (database: 'sqlite' | 'postgres') => ({
  test: {
    name: `contract-${database}`,
    include: ['contract-tests/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...MEASURED_ALONE],
    env: { TEST_DATABASE: database },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Contract files start their own server processes; two cores, so a few files at a time.
    maxWorkers: 3,
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'sdk/src/**/*.test.ts', 'cli/src/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/*.test.ts', 'bench/*.test.ts'], testTimeout: 20_000 } },
      contract('sqlite'),
      contract('postgres'),
      { test: { name: 'measured-alone', include: MEASURED_ALONE, env: { TEST_DATABASE: 'sqlite' }, testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
