import { defineConfig } from 'vitest/config';

// The bundle budget (bundle-budget.test.ts): reads apps/web/dist, so `npm test` runs it after the build. No server
// and no browser; a few seconds (brotli at quality 11 of every built file unless the build wrote the .br files).
export default defineConfig({
  test: {
    name: 'bundle-budget',
    root: import.meta.dirname,
    include: ['bundle-budget.test.ts'],
    testTimeout: 60_000,
  },
});
