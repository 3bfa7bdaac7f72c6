// /healthz and /readyz (issue 25): alive without the database; ready only with the database answering, migrations at
// head, the revocation listener live and the store reachable; 503 names failed checks and reveals nothing else;
// back to 200 as soon as the database is. On PostgreSQL: a database behind a proxy the test cuts and restores, and
// the listener's backend terminated.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { LISTENER_APPLICATION_NAME } from '../db/listener.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { captureLog, setupTestApp } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { sessionCaches } from './authenticate.ts';
import { DATABASE_CHECK_TIMEOUT_MS, markNotReady, migrationsInJournal } from './health.ts';

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
/** The one loopback port this file may listen on (a database proxy, a stand-in S3 server), one user at a time. */
const OWN_PORT = 8101;

const log = captureLog();
const t = await setupTestApp({ LOG_LEVEL: 'debug' }, { logStream: log });

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** Another app on `database` (not closed with it), with config overrides. */
async function appOn(database: Database, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '.test-data',
    SECRET_KEY: 'test-secret-key-0123456789',
    ...env,
  });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  apps.push(app);
  return app;
}

/** `database` whose queries fail while `switch.down` (as a pool whose server went away). */
function switchable(database: Database): {
  database: Database;
  switch: { down: boolean };
  queries: string[];
} {
  const state = { down: false };
  const queries: string[] = [];
  const refused = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  return {
    switch: state,
    queries,
    database: {
      ...database,
      query: async <T>(sql: string, params?: unknown[]) => {
        queries.push(sql);
        return state.down ? refused() : database.query<T>(sql, params);
      },
    },
  };
}

const readyz = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/readyz' });

/** Polls /readyz until it answers `status` (or 10 s pass): the last answer. */
async function readyzUntil(app: FastifyInstance, status: number) {
  const start = performance.now();
  let res = await readyz(app);
  while (res.statusCode !== status && performance.now() - start < 10_000) {
    await new Promise((r) => setTimeout(r, 50));
    res = await readyz(app);
  }
  return res;
}

describe('GET /healthz', () => {
  it('answers 200 {status: ok}, not cached, without touching the database', async () => {
    const { database, switch: s, queries } = switchable(t.database);
    const app = await appOn(database);
    s.down = true;
    queries.length = 0;
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(queries).toEqual([]);
  });

  it('ignores a token: no session lookup, so a probe never waits for or fails on the database', async () => {
    const { database, switch: s, queries } = switchable(t.database);
    const app = await appOn(database);
    s.down = true;
    queries.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { authorization: 'Token 0123456789abcdef0123456789abcdef' },
    });
    expect(res.statusCode).toBe(200);
    expect(queries).toEqual([]);
  });
});

describe('GET /readyz', () => {
  it('answers 200 {status: ok}, not cached, when every check passes', async () => {
    const res = await readyz(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    const head = await t.app.inject({ method: 'HEAD', url: '/readyz' });
    expect(head.statusCode).toBe(200);
  });

  it('is not logged below warn: a poll every second leaves no line even at LOG_LEVEL=debug', async () => {
    const before = log.text().length;
    for (let i = 0; i < 3; i++) {
      await readyz(t.app);
      await t.app.inject({ method: 'GET', url: '/healthz' });
    }
    expect(log.text().slice(before)).not.toMatch(/healthz|readyz/);
    // The request log itself is on: another route does get its debug line.
    await t.app.inject({ method: 'GET', url: '/api/v1/no-such-route/' });
    expect(log.text().slice(before)).toContain('no-such-route');
  });

  it('answers 503 naming "database" while the database is down, and 200 again on the first poll after', async () => {
    const { database, switch: s } = switchable(t.database);
    const app = await appOn(database);
    expect((await readyz(app)).statusCode).toBe(200);
    s.down = true;
    const down = await readyz(app);
    expect(down.statusCode).toBe(503);
    // Migrations were seen at head before: they stay so; only the database is named.
    expect(down.json()).toEqual({ status: 'unavailable', failed: ['database'] });
    expect(down.headers['cache-control']).toBe('no-store');
    s.down = false;
    expect((await readyz(app)).statusCode).toBe(200);
  });

  it('names "database" and "migrations" when the database was never reached', async () => {
    const { database, switch: s } = switchable(t.database);
    s.down = true;
    const app = await appOn(database);
    expect((await readyz(app)).json()).toEqual({ status: 'unavailable', failed: ['database', 'migrations'] });
    s.down = false;
    expect((await readyz(app)).json()).toEqual({ status: 'ok' });
  });

  it('answers 503 "database" when `select 1` takes longer than its timeout, and sends one at a time', async () => {
    const queries: string[] = [];
    let release: () => void = () => {};
    const hung: Database = {
      ...t.database,
      query: async <T>(sql: string, params?: unknown[]) => {
        queries.push(sql);
        if (sql === 'select 1') await new Promise<void>((resolve) => (release = resolve));
        return t.database.query<T>(sql, params);
      },
    };
    const app = await appOn(hung);
    const started = performance.now();
    const [a, b] = await Promise.all([readyz(app), readyz(app)]);
    expect(performance.now() - started).toBeLessThan(DATABASE_CHECK_TIMEOUT_MS * 3);
    expect(a.json()).toEqual({ status: 'unavailable', failed: ['database', 'migrations'] });
    expect(b.statusCode).toBe(503);
    // Two polls, one query in flight: a hung server does not take one connection per poll.
    expect(queries.filter((q) => q === 'select 1')).toHaveLength(1);
    release();
  });

  it('answers 503 "migrations" while the database is behind this code, and 200 once it is migrated', async () => {
    const database = await createTestDatabase();
    afterAll(() => database.close());
    const [last] = await database.query<{ id: number; hash: string; created_at: string }>(
      'select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1',
    );
    expect(last).toBeDefined();
    await database.query('delete from drizzle.__drizzle_migrations where id = $1', [last!.id]);
    const app = await appOn(database);
    const behind = await readyz(app);
    expect(behind.statusCode).toBe(503);
    expect(behind.json()).toEqual({ status: 'unavailable', failed: ['migrations'] });
    await database.query(
      'insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)',
      [last!.id, last!.hash, last!.created_at],
    );
    expect((await readyz(app)).statusCode).toBe(200);
  });

  it('counts the migrations of the journal the code ships', async () => {
    const [row] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(migrationsInJournal()).toBe(row?.n);
  });

  it('answers 503 "listener" while the session-revocation listener is not live', async () => {
    const app = await appOn(t.database, { SESSION_CACHE: 'true' });
    const cache = sessionCaches.get(app);
    expect(cache).toBeDefined();
    // On PostgreSQL the listener connects after start: not ready until it listens.
    expect((await readyzUntil(app, 200)).statusCode).toBe(200);
    cache!.setLive(false);
    expect((await readyz(app)).json()).toEqual({ status: 'unavailable', failed: ['listener'] });
    cache!.setLive(true);
    expect((await readyz(app)).statusCode).toBe(200);
  });

  it('answers 503 "storage" when the disk store cannot be written (its folder is under a file)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-readyz-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const broken = await appOn(t.database, { DATA_DIR: path.join(file, 'data') });
    expect((await readyz(broken)).json()).toEqual({ status: 'unavailable', failed: ['storage'] });
    // A fresh store whose folder does not exist yet is fine: it is made, as the first upload would.
    const fresh = await appOn(t.database, { DATA_DIR: path.join(dir, 'fresh') });
    expect((await readyz(fresh)).statusCode).toBe(200);
    expect(fs.statSync(path.join(dir, 'fresh', 'files')).isDirectory()).toBe(true);
  });

  it('answers 503 "storage" when the S3 bucket refuses the credentials or its server is down, 200 when it answers', async () => {
    const heads: Array<{ url: string | undefined; signed: boolean }> = [];
    let status = 200;
    const s3 = http.createServer((req, res) => {
      heads.push({
        url: req.url,
        signed: /AWS4-HMAC-SHA256 Credential=key-id\//.test(req.headers.authorization ?? ''),
      });
      res.writeHead(req.method === 'HEAD' ? status : 405).end();
    });
    await new Promise<void>((resolve) => s3.listen(OWN_PORT, '127.0.0.1', resolve));
    const s3Env = {
      S3_ENDPOINT: `http://127.0.0.1:${OWN_PORT}`,
      S3_BUCKET: 'scans',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'secret-key',
    };
    try {
      expect((await readyz(await appOn(t.database, s3Env))).statusCode).toBe(200);
      expect(heads.at(-1)).toEqual({ url: '/scans', signed: true });
      status = 403;
      expect((await readyz(await appOn(t.database, s3Env))).json()).toEqual({
        status: 'unavailable',
        failed: ['storage'],
      });
    } finally {
      await new Promise((resolve) => s3.close(resolve));
    }
    expect((await readyz(await appOn(t.database, s3Env))).json()).toEqual({
      status: 'unavailable',
      failed: ['storage'],
    });
  });

  it('asks the store at most once per TTL however often it is polled', async () => {
    let asked = 0;
    const app = await appOn(t.database);
    const storage = app.ctx.services.storage;
    const isReachable = storage.isReachable;
    storage.isReachable = async () => {
      asked++;
      return isReachable();
    };
    for (let i = 0; i < 20; i++) expect((await readyz(app)).statusCode).toBe(200);
    expect(asked).toBe(1);
  });

  it('costs one `select 1` per poll once migrations were seen at head', async () => {
    const { database, queries } = switchable(t.database);
    const app = await appOn(database);
    await readyz(app);
    queries.length = 0;
    for (let i = 0; i < 50; i++) await readyz(app);
    expect(queries).toEqual(Array.from({ length: 50 }, () => 'select 1'));
  });

  it('answers 503 "shutdown" once the server is stopping, while other routes still answer', async () => {
    const app = await appOn(t.database);
    markNotReady(app);
    expect((await readyz(app)).json()).toEqual({ status: 'unavailable', failed: ['shutdown'] });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/country/' })).statusCode).toBe(200);
  });

  it('reveals nothing but the names of failed checks, whatever fails', async () => {
    const { database, switch: s } = switchable(t.database);
    const app = await appOn(database, { SESSION_CACHE: 'true', DATA_DIR: '/dev/null/data' });
    sessionCaches.get(app)!.setLive(false);
    s.down = true;
    markNotReady(app);
    const res = await readyz(app);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      failed: ['shutdown', 'database', 'migrations', 'listener', 'storage'],
    });
    expect(res.body).not.toMatch(/ECONNREFUSED|postgres|127\.0\.0\.1|\/dev\/null|version|\d/i);
  });
});

describe('the operator paths beside the built console', () => {
  it('are answered by their routes, not the console fallback, and stay out of the API document', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-dist-'));
    afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    const app = await appOn(t.database, { WEB_DIST: dist, API_DOCS: 'public' });
    expect((await app.inject({ method: 'GET', url: '/dashboard' })).body).toContain('console');
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.body, url).not.toContain('console');
    }
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
    expect(Object.keys(doc.paths).filter((p) => /healthz|readyz|metrics/.test(p))).toEqual([]);
  });
});

describe.runIf(ON_POSTGRES)('on PostgreSQL', () => {
  it('turns false while the server is unreachable and true again within 2 s of its return (no dead pooled connections)', async () => {
    const base = await createTestDatabase();
    afterAll(() => base.close());
    const target = new URL(base.pool!.options.connectionString!);
    // A TCP proxy in front of PostgreSQL: closing it cuts every connection of the pool, as a server restart would.
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const server = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(server).pipe(client);
    });
    const listen = () => new Promise<void>((resolve) => proxy.listen(OWN_PORT, '127.0.0.1', resolve));
    await listen();
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${OWN_PORT}`;
    const database = openPostgres(proxied.toString());
    afterAll(() => database.close());
    const app = await appOn(database);
    try {
      // Some pooled connections open and idle.
      await Promise.all(Array.from({ length: 4 }, () => database.query('select pg_sleep(0.05)')));
      expect((await readyz(app)).statusCode).toBe(200);

      proxy.close();
      for (const s of sockets) s.destroy();
      const down = await readyz(app);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', failed: ['database'] });

      await listen();
      const back = performance.now();
      expect((await readyzUntil(app, 200)).statusCode).toBe(200);
      expect(performance.now() - back).toBeLessThan(2_000);
    } finally {
      proxy.close();
      for (const s of sockets) s.destroy();
    }
  });

  it('answers 200 on the next poll after the pool’s backends are terminated', async () => {
    const database = await createTestDatabase();
    afterAll(() => database.close());
    const app = await appOn(database);
    await Promise.all(Array.from({ length: 4 }, () => database.query('select pg_sleep(0.05)')));
    expect((await readyz(app)).statusCode).toBe(200);
    const name = new URL(database.pool!.options.connectionString!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const [killed] = (
        await admin.query<{ n: number }>(
          'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
      ).rows;
      expect(killed?.n).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    expect((await readyz(app)).statusCode).toBe(200);
  });

  it('answers 503 "listener" when the listener’s backend is terminated, and 200 once it has reconnected', async () => {
    const database = await createTestDatabase();
    afterAll(() => database.close());
    const app = await appOn(database, { SESSION_CACHE: 'true' });
    const waitFor = (status: number) => readyzUntil(app, status);
    expect((await waitFor(200)).statusCode).toBe(200);
    const name = new URL(database.pool!.options.connectionString!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [name, LISTENER_APPLICATION_NAME],
      );
    } finally {
      await admin.end();
    }
    const lost = await waitFor(503);
    expect(lost.json()).toEqual({ status: 'unavailable', failed: ['listener'] });
    expect((await waitFor(200)).statusCode).toBe(200);
  });
});
