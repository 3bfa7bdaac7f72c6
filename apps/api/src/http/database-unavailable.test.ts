// Losing the database connection (restart, failover, killed backend, network cut, pool timeout) answers 503 with
// Retry-After for the requests in flight, never a 500: those requests did nothing wrong and may simply be retried.
import { Readable } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { patientBody, post, setupUploader } from '../modules/uploads/uploads.fixtures.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';
import { sessionCaches } from './authenticate.ts';
import { HTTP_MESSAGES, isDatabaseUnavailable, registerErrorHandler } from './errors.ts';
import { sendCsv } from './route-helpers.ts';

/** A database whose every query fails with `failure.error`, as a pool that lost its server would. */
function failingDatabase(failure: { error: Error }): Database {
  const fail = () => Promise.reject(failure.error);
  const pool = { query: fail, connect: fail } as unknown as pg.Pool;
  const db = drizzle(pool, { schema });
  // Never live: the session cache (if on) would not be used.
  const listen = () => ({ close: async () => {} });
  return { db, readDb: db, kind: 'postgres', exec: fail, query: fail, listen, close: async () => {} };
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

const CONNECTION_LOSSES: Array<[string, Error]> = [
  ['a backend terminated by the administrator (57P01)', withCode('terminating connection due to administrator command', '57P01')],
  ['a server shutting down (57P02)', withCode('terminating connection due to crash of another server process', '57P02')],
  ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
  ['a connection exception (08006)', withCode('connection failure', '08006')],
  ['a broken socket (ECONNRESET)', withCode('read ECONNRESET', 'ECONNRESET')],
  ['a refused connection (ECONNREFUSED)', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['a connection closed mid-query', new Error('Connection terminated unexpectedly')],
  ['a pool timeout', new Error('timeout exceeded when trying to connect')],
];

const failure = { error: new Error('not set') };
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'test-secret-key-0123456789' });
const app = await buildApp({ config, database: failingDatabase(failure), logger: false });
await app.ready();
afterAll(() => app.close());
// On real PostgreSQL only: an app on a database of its own, whose backends the test kills.
const pgApp = process.env.TEST_DATABASE_URL ? await setupTestApp() : null;

describe('a lost database connection', () => {
  for (const [what, error] of CONNECTION_LOSSES) {
    it(`answers 503 with Retry-After, not 500, to ${what}`, async () => {
      failure.error = error;
      // An anonymous sign-in (the query fails in the service) and a token check (it fails in the auth hook).
      for (const request of [
        { method: 'POST' as const, url: '/api/v1/auth/password/', payload: { email: 'a@b.co', password: 'Secret-pass1' } },
        { method: 'GET' as const, url: '/api/v1/organization/', headers: auth('0123456789abcdef0123456789abcdef') },
      ]) {
        const res = await app.inject(request);
        expect(res.statusCode, request.url).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({ detail: 'The database is unavailable for a moment. Please try again shortly.' });
      }
    });
  }

  it('still answers 500 to a database error that is not about the connection', async () => {
    failure.error = withCode('relation "organizations" does not exist', '42P01');
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/password/', payload: { email: 'a@b.co', password: 'Secret-pass1' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'A server error occurred.' });
  });

  it('answers 503 in JSON, not as the file, to a download that loses its connection before its first byte', async () => {
    const download = Fastify();
    registerErrorHandler(download);
    const lost = withCode('terminating connection due to administrator command', '57P01');
    // The route has set the file's headers when its stream fails, as the scan CSV's COPY does.
    const failing = new Readable({
      read() {
        this.destroy(lost);
      },
    });
    download.get('/scans.csv', (_request, reply) => sendCsv(reply, 'scans.csv', failing));
    try {
      const res = await download.inject({ method: 'GET', url: '/scans.csv' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.json()).toEqual({ detail: HTTP_MESSAGES.databaseUnavailable });
    } finally {
      await download.close();
    }
  });

  it('classifies the driver error wrapped by Drizzle', () => {
    const wrapped = Object.assign(new Error('Failed query: select 1\nparams: '), { cause: withCode('admin shutdown', '57P01') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(withCode('duplicate key', '23505'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Invalid input.'))).toBe(false);
  });
});

// On real PostgreSQL (TEST_DATABASE_URL): a request waiting on a lock has its backend killed with
// pg_terminate_backend, as a failover or an administrator would.
describe.skipIf(!pgApp)('a backend terminated under a request (PostgreSQL)', () => {
  it('answers 503 with Retry-After, and the next request succeeds on a new connection', async () => {
    const t = pgApp!;
    const admin = await createUser(t, { userType: 'ADMIN' });
    const token = await signIn(t, admin);
    await createOrganization(t);
    const pool = t.database.pool!;
    const locker = await pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE organizations IN ACCESS EXCLUSIVE MODE');
      let settled = false;
      const pending = t.app
        .inject({ method: 'GET', url: '/api/v1/organization/', headers: auth(token) })
        .finally(() => (settled = true));
      // Kill the app's backends blocked on the lock until the request answers. On a loaded machine the request may
      // reach the lock late, or one of its two queries (rows, count) before the other: one pass is not always enough.
      let killed = 0;
      for (let i = 0; i < 400 && !settled; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const { rows } = await locker.query<{ killed: boolean }>(
          `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
              AND wait_event_type = 'Lock'`,
        );
        killed += rows.length;
      }
      expect(killed).toBeGreaterThan(0);
      const res = await pending;
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ detail: expect.any(String) });
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/organization/', headers: auth(token) });
    expect(again.statusCode).toBe(200);
  });
});

// On real PostgreSQL: the app's connections (its pool, the session listener) terminated by the server, as in a failover
// or by an administrator, while requests run. node-postgres emits `error` on a connection that dies; without a
// listener (a connection checked out for a transaction has none of the pool's) that `error` ends the process.
const loadApp = process.env.TEST_DATABASE_URL ? await setupTestApp({ SESSION_CACHE: 'true' }) : null;

describe.skipIf(!loadApp)('connections terminated by the server (PostgreSQL)', () => {
  /** A connection of the test's own, outside the app's pool. */
  const connect = async () => {
    const client = new pg.Client({ connectionString: loadApp!.database.pool!.options.connectionString });
    await client.connect();
    return client;
  };
  /** Polls until `check` holds: the server and the app (reconnecting) take their own time. */
  const eventually = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 10));
    }
    return false;
  };
  /** No connection is lost to the pool: every one it has is back, idle. */
  const allReturned = () => loadApp!.database.pool!.totalCount === loadApp!.database.pool!.idleCount;

  const world = async () => {
    const t = loadApp!;
    const org = await createOrganization(t);
    const device = await setupUploader(t, { org });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const read = () => t.app.inject({ method: 'GET', url: '/api/v1/organization/', headers: auth(token) });
    // A patient is created in a transaction: its connection is checked out of the pool between statements.
    const write = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/patient/',
        headers: { ...auth(token), timezone: 'UTC' },
        payload: { first_name: 'Meera', last_name: 'Nair', date_of_birth: '1985-06-01', organization: org.id, technician: device.user.id },
      });
    // A device's upload: its Idempotency-Key is claimed in the transaction that stores the patient.
    const upload = () => post(t, device.token, '/patient/', patientBody(device.device.serialNumber));
    return { read, write, upload };
  };

  it('takes back a connection that dies while checked out, even one its user never releases', async () => {
    const killer = await connect();
    try {
      const client = await loadApp!.database.pool!.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('BEGIN');
      await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      expect(await eventually(allReturned)).toBe(true);
      await expect(client.query('SELECT 1')).rejects.toSatisfy(isDatabaseUnavailable);
      // Already returned: its user's release, however late, does nothing.
      client.release();
      expect(allReturned()).toBe(true);
    } finally {
      await killer.end();
    }
  });

  it('survives a transaction whose backend is terminated mid-way, answering 503 with Retry-After', async () => {
    const { read, write } = await world();
    const locker = await connect();
    const killer = await connect();
    try {
      // The transaction inserts its patient, then waits on the audit log.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE');
      const pending = write();
      const killed = await eventually(async () => {
        const { rows } = await killer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL`,
        );
        return rows.length > 0;
      });
      expect(killed).toBe(true);
      const res = await pending;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      await locker.query('ROLLBACK');
      expect((await read()).statusCode).toBe(200);
      expect((await write()).statusCode).toBe(201);
    } finally {
      await locker.end();
      await killer.end();
    }
  });

  it('answers 503 with Retry-After in JSON to a CSV download whose COPY is terminated', async () => {
    const t = loadApp!;
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const locker = await connect();
    const killer = await connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE scans IN ACCESS EXCLUSIVE MODE');
      const pending = t.app.inject({ method: 'GET', url: '/api/v1/scan/?format=csv', headers: auth(token) });
      const killed = await eventually(async () => {
        const { rows } = await killer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'COPY%'`,
        );
        return rows.length > 0;
      });
      expect(killed).toBe(true);
      const res = await pending;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ detail: HTTP_MESSAGES.databaseUnavailable });
      await locker.query('ROLLBACK');
      expect(await eventually(allReturned)).toBe(true);
      const again = await t.app.inject({ method: 'GET', url: '/api/v1/scan/?format=csv', headers: auth(token) });
      expect(again.statusCode).toBe(200);
    } finally {
      await locker.end();
      await killer.end();
    }
  });

  it('survives every backend terminated during concurrent reads, writes and uploads, and serves again within seconds', async () => {
    const { read, write, upload } = await world();
    const cache = sessionCaches.get(loadApp!.app);
    const killer = await connect();
    const answers: Array<{ status: number; retryAfter: unknown }> = [];
    let running = true;
    const loop = async (request: typeof read) => {
      while (running) {
        const res = await request();
        answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'] });
      }
    };
    const loops = [read, read, write, write, upload, upload].map(loop);
    try {
      let terminated = 0;
      for (let round = 0; round < 15; round++) {
        // Every connection to the database but the killer's: the pool's, the session listener's.
        const { rows } = await killer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        );
        terminated += rows.length;
        // Requests run on new connections before the next round.
        const seen = answers.length;
        expect(await eventually(() => answers.length >= seen + 6)).toBe(true);
      }
      running = false;
      await Promise.all(loops);
      expect(terminated).toBeGreaterThan(15);
      const failed = answers.filter((a) => !(a.status === 200 || a.status === 201 || (a.status === 503 && a.retryAfter === '5')));
      expect(failed).toEqual([]);
      const serving = async () =>
        (await read()).statusCode === 200 && (await write()).statusCode === 201 && (await upload()).statusCode === 201;
      expect(await eventually(serving)).toBe(true);
      expect(await eventually(allReturned)).toBe(true);
      expect(await eventually(() => cache!.isLive)).toBe(true);
    } finally {
      running = false;
      await Promise.allSettled(loops);
      await killer.end();
    }
  });
});
