import { defineConfig } from 'vitest/config';

const contract = (database: 'sqlite' | 'postgres') => ({
  test: {
    name: `contract-${database}`,
    include: ['contract-tests/**/*.test.ts'],
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
    ],
  },
});
