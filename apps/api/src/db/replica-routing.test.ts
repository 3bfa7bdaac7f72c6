// The replica routing rule without a replica (both test passes): WAL positions, how the monitor measures lag in
// time, when a read may go to the replica, the retry on the primary, the refusal of writes, the read-after cookie's
// parsing, a streamed file's later batches keeping the request's context, REPLICA_MAX_LAG_MS's validation; and that
// without DATABASE_READ_URL everything stays on the primary.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { loadConfig } from '../config.ts';
import { READ_AFTER_COOKIE, readAfterLsn, readAfterMaxAgeSeconds } from '../http/replica-routing.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createUser, signIn } from '../test/factories.ts';
import { csvFile } from '../http/csv-stream.ts';
import {
  ReadRoutingPool,
  ReplicaMonitor,
  currentReadContext,
  keepReadContext,
  formatLsn,
  parseLsn,
  readerFor,
  runWithReadContext,
} from './replica.ts';

const t = await setupTestApp();

/** A stand-in pool: answers each query with `answer(text)` (a value, or a thrown error) and records the texts. */
function fakePool(answer: (text: string) => unknown) {
  const texts: string[] = [];
  const pool = {
    texts,
    query: async (config: string | { text: string }) => {
      const text = typeof config === 'string' ? config : config.text;
      texts.push(text);
      const value = answer(text);
      if (value instanceof Error) throw value;
      return { rows: [value] };
    },
  };
  return pool as typeof pool & pg.Pool;
}

/** Primary and replica whose WAL positions the test moves, and a clock it sets. */
function setup(maxLagMs = 2000) {
  const lsn = { primary: 100n, replay: 100n as bigint | null, replicaDown: false };
  let clock = 1_000_000;
  const primary = fakePool((text) =>
    text.includes('pg_current_wal_lsn') ? { lsn: formatLsn(lsn.primary) } : { ok: 'primary' },
  );
  const replica = fakePool((text) => {
    if (lsn.replicaDown)
      return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:55442'), { code: 'ECONNREFUSED' });
    if (text.includes('pg_last_wal_replay_lsn'))
      return { lsn: lsn.replay === null ? null : formatLsn(lsn.replay) };
    return { ok: 'replica' };
  });
  const monitor = new ReplicaMonitor(primary, replica, maxLagMs, () => clock);
  return {
    lsn,
    primary,
    replica,
    monitor,
    advance: (ms: number) => (clock += ms),
  };
}

describe('WAL positions', () => {
  it('reads and writes the text form PostgreSQL uses', () => {
    expect(parseLsn('0/3000148')).toBe(0x3000148n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(formatLsn(parseLsn('16/B374D848')!)).toBe('16/B374D848');
    for (const bad of ['', 'x', '1/2/3', 'G/1', '123456789/1', '/1', 42, null, undefined])
      expect(parseLsn(bad)).toBeNull();
  });
});

describe('the replica monitor', () => {
  it('is not healthy before its first sample, and healthy with no lag when the replica has replayed all', async () => {
    const s = setup();
    expect(s.monitor.state()).toMatchObject({ healthy: false, reachable: false });
    await s.monitor.sample();
    expect(s.monitor.state()).toEqual({
      healthy: true,
      reachable: true,
      standby: true,
      lagMs: 0,
      replayLsn: 100n,
    });
  });

  it('measures lag as the age of the newest primary position the replica has reached, and goes unhealthy past the bound', async () => {
    const s = setup(2000);
    await s.monitor.sample();
    // The primary writes; the replica does not replay it.
    s.lsn.primary = 200n;
    s.advance(500);
    await s.monitor.sample();
    expect(s.monitor.state()).toMatchObject({ lagMs: 500, healthy: true });
    s.lsn.primary = 300n;
    s.advance(1500);
    await s.monitor.sample();
    expect(s.monitor.state()).toMatchObject({ lagMs: 2000, healthy: true });
    s.advance(1);
    expect(s.monitor.state()).toMatchObject({ lagMs: 2001, healthy: false });
    // It replays part of the way: up to what the primary had at the second sample, 1501 ms ago.
    s.lsn.replay = 200n;
    await s.monitor.sample();
    expect(s.monitor.state()).toMatchObject({ lagMs: 1501, healthy: true });
  });

  it('lets the lag grow with the clock when samples stop reaching the primary', async () => {
    const s = setup(2000);
    await s.monitor.sample();
    s.advance(2500);
    expect(s.monitor.state()).toMatchObject({ reachable: true, lagMs: 2500, healthy: false });
  });

  it('is unhealthy when the replica cannot be reached, or is not in recovery (not a replica)', async () => {
    const s = setup();
    s.lsn.replicaDown = true;
    await s.monitor.sample();
    expect(s.monitor.state()).toMatchObject({
      reachable: false,
      healthy: false,
      lagMs: Number.POSITIVE_INFINITY,
    });
    s.lsn.replicaDown = false;
    await s.monitor.sample();
    expect(s.monitor.state().healthy).toBe(true);
    s.lsn.replay = null;
    await s.monitor.sample();
    expect(s.monitor.state()).toMatchObject({ reachable: true, standby: false, healthy: false });
  });

  it('says when reads leave the replica and when they come back, once each', async () => {
    const changes: string[] = [];
    const lsn = { replay: 100n as bigint | null };
    const primary = fakePool(() => ({ lsn: '0/64' }));
    const replica = fakePool(() => ({ lsn: lsn.replay === null ? null : formatLsn(lsn.replay) }));
    const monitor = new ReplicaMonitor(primary, replica, 2000, Date.now, (healthy) =>
      changes.push(healthy ? 'back' : 'left'),
    );
    await monitor.sample();
    await monitor.sample();
    expect(changes).toEqual([]);
    lsn.replay = null;
    await monitor.sample();
    await monitor.sample();
    lsn.replay = 100n;
    await monitor.sample();
    expect(changes).toEqual(['left', 'back']);
  });

  it("serves a read only once the replica has replayed the client's own last write", async () => {
    const s = setup();
    await s.monitor.sample();
    expect(s.monitor.mayServe(undefined)).toBe(true);
    expect(s.monitor.mayServe({ minLsn: null })).toBe(true);
    expect(s.monitor.mayServe({ minLsn: 100n })).toBe(true);
    expect(s.monitor.mayServe({ minLsn: 101n })).toBe(false);
  });
});

describe('the read router', () => {
  it('sends reads to the replica while it may serve them, else to the primary', async () => {
    const s = setup();
    const router = new ReadRoutingPool(s.primary, s.replica, s.monitor);
    expect(await router.query('select 1')).toMatchObject({ rows: [{ ok: 'primary' }] });
    await s.monitor.sample();
    expect(await router.query({ text: 'select 1' })).toMatchObject({ rows: [{ ok: 'replica' }] });
    const own = await runWithReadContext({ minLsn: 150n }, () => router.query('select 1'));
    expect(own).toMatchObject({ rows: [{ ok: 'primary' }] });
  });

  it('runs a read once more on the primary when the replica connection fails, and stops sending it there', async () => {
    const s = setup();
    const router = new ReadRoutingPool(s.primary, s.replica, s.monitor);
    await s.monitor.sample();
    s.lsn.replicaDown = true;
    expect(await router.query('select 2')).toMatchObject({ rows: [{ ok: 'primary' }] });
    expect(s.monitor.state().reachable).toBe(false);
    expect(s.replica.texts.filter((t) => t === 'select 2')).toHaveLength(1);
  });

  it('does not retry a query that failed for its own sake', async () => {
    const s = setup();
    const replica = fakePool((text) =>
      text.includes('pg_last_wal_replay_lsn')
        ? { lsn: '0/64' }
        : Object.assign(new Error('syntax error'), { code: '42601' }),
    );
    const monitor = new ReplicaMonitor(s.primary, replica, 2000);
    await monitor.sample();
    const router = new ReadRoutingPool(s.primary, replica, monitor);
    await expect(router.query('select bad')).rejects.toThrow('syntax error');
    expect(s.primary.texts).not.toContain('select bad');
  });

  it('refuses statements that write, whichever server would have taken them', async () => {
    const s = setup();
    const router = new ReadRoutingPool(s.primary, s.replica, s.monitor);
    for (const text of [
      'insert into x values (1)',
      'update x set a = 1',
      'delete from x',
      ' DROP TABLE x',
      'set role y',
    ]) {
      await expect(router.query(text)).rejects.toThrow(/only reads/);
    }
    expect([...s.primary.texts, ...s.replica.texts]).toEqual([]);
    await expect(router.query('with a as (select 1) select * from a')).resolves.toBeDefined();
    await expect(router.query('(select 1) union (select 2)')).resolves.toBeDefined();
  });

  it('is chosen by one helper from the request flag', () => {
    const database = { db: 'primary', readDb: 'read' } as unknown as Parameters<typeof readerFor>[0];
    expect(readerFor(database, true)).toBe('read');
    expect(readerFor(database, false)).toBe('primary');
    expect(readerFor(database, undefined)).toBe('primary');
  });
});

describe('the read context of a streamed file', () => {
  async function* contextSeen() {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1));
      yield [String(currentReadContext()?.minLsn ?? 'none')];
    }
  }
  const noLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as Parameters<
    typeof csvFile
  >[2];

  it("keeps the request's last-write position for rows read after the handler returned (a CSV's later batches)", async () => {
    // The file is made inside the request's context and read outside it, as a response stream is.
    const file = runWithReadContext({ minLsn: 7n }, () =>
      csvFile(['context'], contextSeen(), noLog, 'test file'),
    );
    let text = '';
    for await (const chunk of file) text += String(chunk);
    expect(text.trim().split('\n')).toEqual(['context', '7', '7', '7']);
  });

  it('would lose it without: the generator runs in the context of whoever reads it', async () => {
    const rows = runWithReadContext({ minLsn: 7n }, () => contextSeen());
    const seen: string[][] = [];
    for await (const row of rows) seen.push(row);
    expect(seen.flat()).toEqual(['none', 'none', 'none']);
    const kept = runWithReadContext({ minLsn: 7n }, () => keepReadContext(contextSeen()));
    const seenKept: string[][] = [];
    for await (const row of kept) seenKept.push(row);
    expect(seenKept.flat()).toEqual(['7', '7', '7']);
  });
});

describe('the read-after cookie', () => {
  const request = (cookie?: string) =>
    ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;

  it("reads the client's last-write position among other cookies, and ignores what is not one", () => {
    expect(readAfterLsn(request(`a=1; ${READ_AFTER_COOKIE}=0/3000148; b=2`))).toBe(0x3000148n);
    expect(readAfterLsn(request(`${READ_AFTER_COOKIE}="1/A"`))).toBe((1n << 32n) + 10n);
    expect(readAfterLsn(request(`${READ_AFTER_COOKIE}=0%2F10`))).toBe(16n);
    for (const bad of [
      undefined,
      '',
      'a=1',
      `${READ_AFTER_COOKIE}=`,
      `${READ_AFTER_COOKIE}=drop`,
      `x${READ_AFTER_COOKIE}=0/1`,
    ]) {
      expect(readAfterLsn(request(bad))).toBeNull();
    }
  });

  it('outlives the lag bound, so that a healthy replica has the write once it expires', () => {
    expect(readAfterMaxAgeSeconds(2000)).toBe(7);
    expect(readAfterMaxAgeSeconds(2500)).toBe(8);
  });
});

describe('REPLICA_MAX_LAG_MS', () => {
  it('defaults to 2000 ms and refuses what is not a sensible number of milliseconds', () => {
    expect(loadConfig({}).REPLICA_MAX_LAG_MS).toBe(2000);
    expect(loadConfig({ REPLICA_MAX_LAG_MS: '5000' }).REPLICA_MAX_LAG_MS).toBe(5000);
    const refusals = {
      abc: 'REPLICA_MAX_LAG_MS: a number of milliseconds',
      '': 'REPLICA_MAX_LAG_MS: at least 1000',
      '500': 'REPLICA_MAX_LAG_MS: at least 1000',
      '1.5': 'REPLICA_MAX_LAG_MS: a whole number',
      '99999999': 'REPLICA_MAX_LAG_MS: at most 3600000',
    };
    for (const [bad, message] of Object.entries(refusals)) {
      expect(() => loadConfig({ REPLICA_MAX_LAG_MS: bad }), bad).toThrow(message);
    }
  });
});

describe('without DATABASE_READ_URL', () => {
  it('reads from the primary, runs no monitor and sets no cookie', async () => {
    expect(t.database.readDb).toBe(t.database.db);
    expect(t.database.replica).toBeUndefined();
    const admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/language/',
      headers: auth(admin),
      payload: { name: 'No Replica', iso_code: 'qz' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
