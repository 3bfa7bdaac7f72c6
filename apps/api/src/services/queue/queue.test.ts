import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { setupTestApp } from '../../test/app.ts';
import type { ServiceLogger } from '../logger.ts';
import { createQueue } from './queue.ts';

const t = await setupTestApp();
const silent: ServiceLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const queue = createQueue(config, t.database, silent, { pollingIntervalSeconds: 0.5 });
afterAll(() => queue.stop());

describe(`job queue (pg-boss on ${t.database.kind})`, () => {
  it('runs queued jobs in this process with drain(), payload intact', async () => {
    const seen: unknown[] = [];
    queue.work('test-echo', async (payload) => {
      seen.push(payload);
    });
    await queue.send('test-echo', { n: 1 });
    await queue.sendMany('test-echo', [{ n: 2 }, { n: 3 }]);
    expect(await queue.drain()).toBe(3);
    // Jobs inserted together share a creation time: their order among themselves is not defined.
    expect(seen).toHaveLength(3);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    expect(await queue.drain()).toBe(0);
  });

  it('keeps a job scheduled for later until its time, unless told to ignore the delay', async () => {
    const seen: unknown[] = [];
    queue.work('test-later', async (payload) => {
      seen.push(payload);
    });
    await queue.send('test-later', { later: true }, { startAfterSeconds: 3600 });
    expect(await queue.drain({ ignoreStartAfter: false })).toBe(0);
    expect(await queue.drain()).toBe(1);
    expect(seen).toEqual([{ later: true }]);
  });

  it('retries a job whose handler throws, within its retry limit', async () => {
    let calls = 0;
    queue.work('test-flaky', async () => {
      calls++;
      if (calls < 3) throw new Error('not yet');
    });
    await queue.send('test-flaky', {}, { retryLimit: 2, retryDelaySeconds: 60 });
    await queue.drain();
    expect(calls).toBe(3);
  });

  it('saves a registered schedule in pg-boss when the workers start, not before', async () => {
    const schedules = () =>
      t.database.query(`SELECT name, cron, data FROM pgboss.schedule WHERE name = 'test-cron'`);
    queue.work('test-cron', async () => undefined);
    queue.schedule('test-cron', '*/5 * * * *', { every: 5 });
    await queue.drain();
    expect(await schedules()).toEqual([]);
    await queue.start();
    expect(await schedules()).toEqual([{ name: 'test-cron', cron: '*/5 * * * *', data: { every: 5 } }]);
  });

  it('hands jobs to polling workers once started', async () => {
    const seen: unknown[] = [];
    let resolve: () => void = () => undefined;
    const done = new Promise<void>((r) => (resolve = r));
    queue.work('test-worker', async (payload) => {
      seen.push(payload);
      resolve();
    });
    await queue.start();
    await queue.send('test-worker', { via: 'worker' });
    await done;
    expect(seen).toEqual([{ via: 'worker' }]);
  });
});

describe('job queue shutdown (SIGTERM)', () => {
  it('stops fetching at stopWorkers, lets the running job finish before stop resolves, and leaves new jobs queued', async () => {
    const own = createQueue(config, t.database, silent, { pollingIntervalSeconds: 0.5 });
    const events: string[] = [];
    own.work('test-slow', async (payload) => {
      const { n } = payload as { n: number };
      events.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      events.push(`end ${n}`);
    });
    try {
      await own.start();
      const first = await own.send('test-slow', { n: 1 });
      for (let i = 0; i < 100 && !events.includes('start 1'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(events).toEqual(['start 1']);

      await own.stopWorkers(Date.now() + 10_000);
      // Requests still in flight may queue jobs until the queue stops; another instance runs them.
      const second = await own.send('test-slow', { n: 2 });
      await own.stop();
      expect(events).toEqual(['start 1', 'end 1']);
      const states = await t.database.query<{ id: string; state: string }>(
        'SELECT id::text, state::text FROM pgboss.job WHERE id = ANY($1::uuid[])',
        [[first, second]],
      );
      expect(Object.fromEntries(states.map((s) => [s.id, s.state]))).toEqual({ [first!]: 'completed', [second!]: 'created' });
    } finally {
      await own.stop();
    }
  });
});
