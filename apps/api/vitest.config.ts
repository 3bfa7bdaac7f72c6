import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    // The hostile-input sweeps and the PDF back-pressure tests send hundreds of requests: 30 s was exceeded at a
    // load average of 20 on 2 cores. A hang still fails; only the margin grows.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file clones a migrated database snapshot; two workers match the two cores.
    pool: 'forks',
    maxWorkers: 2,
    sequence: { groupOrder: 2 },
  },
});
