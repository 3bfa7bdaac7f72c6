import { defineConfig } from 'vitest/config';

// End-to-end journeys in Chromium. Two files run side by side (E2E_WORKERS, default 2), each worker against its own
// server and database started once for the run (global-setup.ts): a journey mostly waits on one process at a time
// (browser, then server), so two of them keep both cores busy.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // A journey takes 2–15 s on an idle machine; at a load average of 30 on 2 cores some took over 60 s.
    testTimeout: 120_000,
    // In CI a journey that fails is run once more (Playwright's own CI default is two retries): a browser on a
    // loaded 2-core machine can miss a deadline that says nothing about the console. A journey that fails twice
    // fails the run, and the report still lists the retried ones.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 120_000,
    // expect.poll waits for its value this long (Vitest's default is 1 s): the budget of every wait (browser.ts).
    expect: { poll: { timeout: 45_000, interval: 100 } },
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
  },
});
