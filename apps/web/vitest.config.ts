import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // One budget for every test, set here and not per file: a component test takes a second or two on an idle
    // machine, but at a load average of 28 on 2 cores form tests took 30–40 s (each wait ending as soon as its
    // condition held). A hang still fails. The waits' own budget (asyncUtilTimeout, test/setup.ts) is below it.
    testTimeout: 120_000,
    // Two workers, one per core: Vitest's default on 2 cores is one (cores − 1), which left the second core idle
    // for the whole web step (~300 s of CPU). Its own group, after shared (one worker) and before api (two).
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
