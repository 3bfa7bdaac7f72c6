import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file clones a migrated database snapshot; two workers match the two cores.
    pool: 'forks',
    maxWorkers: 2,
    sequence: { groupOrder: 2 },
  },
});
