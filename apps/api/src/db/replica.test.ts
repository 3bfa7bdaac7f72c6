// The read replica for real (issue 25): a throwaway primary and a streaming replica (pg_basebackup -R) on loopback
// ports, and the API between them. using_read_db=true reads are served by the replica (shown by pausing its replay:
// it answers from before a write); a client's own write shows at once, on any instance (the read-after cookie sends
// the read to the primary); lag past REPLICA_MAX_LAG_MS and a stopped replica send reads to the primary (answers 200,
// current); the read handle never writes. PostgreSQL pass only (TEST_DATABASE_URL); skipped without Debian's
// PostgreSQL binaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TLanguage } from '@sc/shared/languages';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { READ_AFTER_COOKIE } from '../http/replica-routing.ts';
import { createClock, type TestContext } from '../test/app.ts';
import { auth, createLanguage, createUser, signIn } from '../test/factories.ts';
import {
  pgClusterAvailable,
  startPrimary,
  startReplica,
  type PgCluster,
  type ReplicaCluster,
} from '../test/pg-cluster.ts';
import { openPostgres, runMigrations, type Database } from './client.ts';
import { ReadRoutingPool, ReplicaMonitor } from './replica.ts';
import { languages } from './schema/index.ts';

const PRIMARY_PORT = 55441;
const REPLICA_PORT = 55442;
const DB = 'sc_replica';
const enabled = Boolean(process.env.TEST_DATABASE_URL) && pgClusterAvailable;

let primary: PgCluster;
let replica: ReplicaCluster;
const apps: TestContext[] = [];

/** The API on the primary with the replica as DATABASE_READ_URL and this lag bound. */
async function startApi(maxLagMs: number): Promise<TestContext> {
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '.test-data',
    SECRET_KEY: 'test-secret-key-0123456789',
    DATABASE_URL: primary.urlFor(DB),
    DATABASE_READ_URL: replica.urlFor(DB),
    REPLICA_MAX_LAG_MS: String(maxLagMs),
  };
  const config = loadConfig(env);
  const database = openPostgres(env.DATABASE_URL, env.DATABASE_READ_URL, {
    replicaMaxLagMs: config.REPLICA_MAX_LAG_MS,
  });
  const clock = createClock();
  const app = await buildApp({ config, database, logger: false, now: clock.now });
  await app.ready();
  const t = { app, database, clock };
  apps.push(t);
  return t;
}

/** What /metrics says of the replica: whether it is in use (1/0) and its lag in seconds. */
async function replicaGauges(t: TestContext): Promise<{ inUse?: number; lagSeconds?: number }> {
  const { registry } = t.app.ctx.services.metrics;
  const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
  return { inUse: await value('sc_db_replica_in_use'), lagSeconds: await value('sc_db_replica_lag_seconds') };
}

async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const monitorOf = (database: Database) => database.replica!.monitor;
/** Waits for a monitor sample taken after now (so it knows the replica's latest position). */
async function freshSample(database: Database): Promise<void> {
  await monitorOf(database).sample();
  await monitorOf(database).sample();
}

const pauseReplay = () => replica.query('SELECT pg_wal_replay_pause()', [], DB);
const resumeReplay = () => replica.query('SELECT pg_wal_replay_resume()', [], DB);

let isoSeq = 0;
/** A fresh two-letter code from the qa–qz range (reserved for local use) and on. */
const nextIso = () => `q${String.fromCharCode(97 + (isoSeq++ % 26))}`;

async function languageNames(
  app: FastifyInstance,
  token: string,
  search: string,
  opts: { read?: boolean; cookie?: string } = {},
) {
  const query = `search=${encodeURIComponent(search)}${opts.read === false ? '' : '&using_read_db=true'}`;
  const res = await app.inject({
    method: 'GET',
    url: `/api/v1/language/?${query}`,
    headers: { ...auth(token), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: TLanguage[] }>().results.map((l) => l.name);
}

/** The cookie a write's answer sets, as the browser sends it back ('sc_read_after=0/3000148'). */
function readAfterCookie(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith(`${READ_AFTER_COOKIE}=`));
  if (!line) throw new Error(`no ${READ_AFTER_COOKIE} cookie in ${String(setCookie)}`);
  return line.split(';')[0]!;
}

describe.skipIf(!enabled)('a streaming read replica', () => {
  let t: TestContext;
  let admin: string;

  beforeAll(async () => {
    primary = await startPrimary({ port: PRIMARY_PORT });
    await primary.query(`CREATE DATABASE ${DB}`);
    const migrate = openPostgres(primary.urlFor(DB));
    await runMigrations(migrate);
    await migrate.close();
    replica = await startReplica(primary, { port: REPLICA_PORT });
    // A bound long enough that pausing replay for a test's few seconds leaves the replica healthy.
    t = await startApi(60_000);
    admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    await replica.waitForReplay();
    await waitUntil('the replica is healthy', () => monitorOf(t.database).state().healthy);
  }, 120_000);

  afterAll(async () => {
    for (const a of apps) {
      await a.app.close();
      await a.database.close();
    }
    await replica?.destroy();
    await primary?.destroy();
  });

  it('serves a using_read_db=true read from the replica: with its replay paused it answers from before a write', async () => {
    await pauseReplay();
    try {
      await createLanguage(t, { name: 'Replica Unseen', isoCode: nextIso() });
      expect(await languageNames(t.app, admin, 'Replica Unseen')).toEqual([]);
      // The same read without the flag is the primary's.
      expect(await languageNames(t.app, admin, 'Replica Unseen', { read: false })).toEqual([
        'Replica Unseen',
      ]);
      expect(monitorOf(t.database).state()).toMatchObject({ reachable: true, healthy: true });
    } finally {
      await resumeReplay();
    }
    await replica.waitForReplay();
    expect(await languageNames(t.app, admin, 'Replica Unseen')).toEqual(['Replica Unseen']);
  });

  it("shows the user's own write at once while the replica is behind (the read-after cookie), and others' later", async () => {
    // A second instance (its own monitor, no memory shared with the first) answers the writer's next read.
    const other = await startApi(60_000);
    await waitUntil('the replica is healthy', () => monitorOf(other.database).state().healthy);
    await pauseReplay();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/language/',
        headers: auth(admin),
        payload: { name: 'Own Write', iso_code: nextIso() },
      });
      expect(res.statusCode, res.body).toBe(201);
      const setCookie = [res.headers['set-cookie'] ?? []].flat().join('\n');
      expect(setCookie).toMatch(
        new RegExp(
          `^${READ_AFTER_COOKIE}=[0-9A-F]+/[0-9A-F]+; Max-Age=65; Path=/api; HttpOnly; SameSite=Lax$`,
        ),
      );
      const cookie = readAfterCookie(res.headers['set-cookie']);
      // The writer's browser sends the cookie back: its read goes to the primary and shows the write.
      expect(await languageNames(t.app, admin, 'Own Write', { cookie })).toEqual(['Own Write']);
      expect(await languageNames(other.app, admin, 'Own Write', { cookie })).toEqual(['Own Write']);
      // Another client (no cookie) reads from the replica, still behind and within the bound, on either instance.
      expect(await languageNames(t.app, admin, 'Own Write')).toEqual([]);
      expect(await languageNames(other.app, admin, 'Own Write')).toEqual([]);
      // A cookie that names no WAL position is ignored, not an error.
      expect(
        await languageNames(t.app, admin, 'Own Write', { cookie: `${READ_AFTER_COOKIE}=x/../` }),
      ).toEqual([]);
    } finally {
      await resumeReplay();
    }
    await replica.waitForReplay();
    await freshSample(t.database);
    // Once the replica has replayed the write, the writer's reads are the replica's again (the route is the same).
    expect(monitorOf(t.database).mayServe({ minLsn: null })).toBe(true);
  });

  it('sets no read-after cookie on reads, nor on refused writes', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/language/?using_read_db=true',
      headers: auth(admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/language/',
      headers: auth(admin),
      payload: {},
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('never writes through the read handle: its statements are refused, its connections read-only, writes reach the primary', async () => {
    const { readDb, replica: routing } = t.database;
    const refused = await readDb
      .insert(languages)
      .values({ name: 'Through Read', isoCode: nextIso() })
      .then(
        () => null,
        (error: unknown) => error as Error,
      );
    // Drizzle wraps the driver's error ('Failed query: …') with ours as its cause.
    expect(refused?.cause).toMatchObject({ message: expect.stringMatching(/only reads/) as unknown });
    expect(await languageNames(t.app, admin, 'Through Read', { read: false })).toEqual([]);
    const { rows } = await routing!.pool.query<{ v: string }>(
      "SELECT current_setting('default_transaction_read_only') AS v",
    );
    expect(rows[0]?.v).toBe('on');
    // A write through the API while the replica is paused: it lands on the primary (the replica could not take it).
    await pauseReplay();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/language/',
        headers: auth(admin),
        payload: { name: 'Primary Write', iso_code: nextIso() },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(await languageNames(t.app, admin, 'Primary Write', { read: false })).toEqual(['Primary Write']);
    } finally {
      await resumeReplay();
    }
    await replica.waitForReplay();
  });

  it('never takes a server that is not a standby for the replica (DATABASE_READ_URL naming the primary)', async () => {
    const monitor = new ReplicaMonitor(t.database.pool!, t.database.pool!, 60_000);
    await monitor.sample();
    expect(monitor.state()).toMatchObject({ reachable: true, standby: false, healthy: false });
    expect(monitor.mayServe(undefined)).toBe(false);
  });

  it('sends reads to the primary once the replica lags past REPLICA_MAX_LAG_MS, and back when it catches up', async () => {
    const tight = await startApi(1000);
    await waitUntil('the replica is healthy', () => monitorOf(tight.database).state().healthy);
    await pauseReplay();
    try {
      await createLanguage(t, { name: 'Past Bound', isoCode: nextIso() });
      await waitUntil('the lag passes the bound', () => monitorOf(tight.database).state().lagMs > 1000);
      expect(monitorOf(tight.database).state().healthy).toBe(false);
      const behind = await replicaGauges(tight);
      expect(behind.inUse).toBe(0);
      expect(behind.lagSeconds).toBeGreaterThan(1);
      // Not stale: the primary answers, with the write the replica has not replayed.
      expect(await languageNames(tight.app, admin, 'Past Bound')).toEqual(['Past Bound']);
    } finally {
      await resumeReplay();
    }
    await waitUntil('the replica is healthy again', () => monitorOf(tight.database).state().healthy);
    expect(monitorOf(tight.database).state().lagMs).toBeLessThanOrEqual(1000);
    expect((await replicaGauges(tight)).inUse).toBe(1);
    expect(await languageNames(tight.app, admin, 'Past Bound')).toEqual(['Past Bound']);
  });

  it('answers reads from the primary while the replica is stopped, and returns to the replica when it is back', async () => {
    await createLanguage(t, { name: 'Replica Down', isoCode: nextIso() });
    await replica.waitForReplay();
    // A router whose monitor last saw the replica up and samples no more: its next read is sent to the stopped replica.
    const { pool, replica: routing } = t.database;
    const stale = new ReplicaMonitor(pool!, routing!.pool, 60_000);
    await stale.sample();
    const router = new ReadRoutingPool(pool!, routing!.pool, stale);
    const standby = async () =>
      (await router.query('SELECT pg_is_in_recovery() AS standby')).rows[0] as { standby: boolean };
    expect(await standby()).toEqual({ standby: true });
    await replica.stop();
    try {
      // Refused by the replica, answered by the primary, and the replica is off the route until a sample finds it.
      expect(await standby()).toEqual({ standby: false });
      expect(stale.state().reachable).toBe(false);
      // The first read may still be routed to the replica (the monitor has not noticed): it is retried on the primary.
      for (let i = 0; i < 5; i++)
        expect(await languageNames(t.app, admin, 'Replica Down')).toEqual(['Replica Down']);
      await waitUntil('the monitor sees the replica down', () => !monitorOf(t.database).state().reachable);
      expect(await languageNames(t.app, admin, 'Replica Down')).toEqual(['Replica Down']);
    } finally {
      await replica.start();
    }
    await waitUntil('the replica is healthy again', () => monitorOf(t.database).state().healthy);
    // Back on the replica: with replay paused it answers from before the next write again.
    await pauseReplay();
    try {
      await createLanguage(t, { name: 'Replica Back', isoCode: nextIso() });
      expect(await languageNames(t.app, admin, 'Replica Back')).toEqual([]);
    } finally {
      await resumeReplay();
    }
  });
});
