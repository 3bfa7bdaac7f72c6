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
    // A component test takes well under a second; the margin is for a loaded 2-core CI machine, where jsdom
    // renders were seen to take 5+ s (20 s at a load average of 20) while other suites ran beside them.
    testTimeout: 30_000,
    // Two workers, one per core: Vitest's default on 2 cores is one (cores − 1), which left the second core idle
    // for the whole web step (~300 s of CPU). Its own group, after shared (one worker) and before api (two).
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
