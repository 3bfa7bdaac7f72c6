// GET /metrics (issue 25): absent without METRICS_TOKEN, 401 without the right bearer token, Prometheus text with it;
// the counters move with what happens (requests by route pattern, device uploads, webhook deliveries, failed jobs)
// and the gauges read state at scrape time (queue depth once the queue runs, pool use on PostgreSQL).
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPostgres, type Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { patientBody, post, setupUploader } from '../modules/uploads/uploads.fixtures.ts';
import { scanInput } from '../modules/scans/scans.fixtures.ts';
import { createScan } from '../modules/scans/scans.service.ts';
import { startReceiver } from '../services/webhooks/test-receiver.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization } from '../test/factories.ts';

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

const t = await setupTestApp({ METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
afterAll(() => receiver.close());

const scrape = async (app: FastifyInstance = t.app): Promise<string> => {
  const res = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of the sample `name{labels}` in Prometheus text (labels in any order), or undefined when absent. */
function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (
      Object.entries(labels).every(([k, v]) => found[k] === v) &&
      Object.keys(found).length === Object.keys(labels).length
    ) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe('GET /metrics access', () => {
  it('answers 404, as if absent, when METRICS_TOKEN is not set', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '.test-data',
      SECRET_KEY: 'test-secret-key-0123456789',
    });
    const app = await buildApp({ config, database: t.database, logger: false });
    afterAll(() => app.close());
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('answers 401 without a token, with a wrong one, or with another scheme, and reveals no metric', async () => {
    for (const [authorization, detail] of [
      [undefined, 'Authentication credentials were not provided.'],
      ['Bearer wrong-token-0123456789abcdef', 'Invalid token.'],
      [`Bearer ${METRICS_TOKEN}x`, 'Invalid token.'],
      [`Token ${METRICS_TOKEN}`, 'Authentication credentials were not provided.'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ detail });
      expect(res.body).not.toContain('sc_');
    }
  });

  it('refuses METRICS_TOKEN values that are too short to be a secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: at least 16 characters/,
    );
    expect(loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
  });

  it('answers Prometheus text, not cached, with the process metrics', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('# TYPE sc_http_requests_total counter');
    expect(res.body).toContain('# TYPE sc_http_request_duration_seconds histogram');
    expect(sampleOf(res.body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleOf(res.body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('request metrics', () => {
  it('counts and times requests by method, route pattern and status code', async () => {
    const labels = { method: 'GET', route: '/api/v1/patient/:id/', status_code: '401' };
    const before = sampleOf(await scrape(), 'sc_http_requests_total', labels) ?? 0;
    for (const id of [101, 102, 103]) await t.app.inject({ method: 'GET', url: `/api/v1/patient/${id}/` });
    const text = await scrape();
    expect(sampleOf(text, 'sc_http_requests_total', labels)).toBe(before + 3);
    expect(sampleOf(text, 'sc_http_request_duration_seconds_count', labels)).toBe(before + 3);
    expect(sampleOf(text, 'sc_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      before + 3,
    );
    // Only the pattern: the ids never become labels.
    expect(text).not.toContain('/api/v1/patient/101/');
  });

  it('puts every URL that matches no route under one label', async () => {
    const labels = { method: 'GET', route: 'unmatched', status_code: '404' };
    const before = sampleOf(await scrape(), 'sc_http_requests_total', labels) ?? 0;
    await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here-a/' });
    await t.app.inject({ method: 'GET', url: '/wp-login.php?user=x' });
    const text = await scrape();
    expect(sampleOf(text, 'sc_http_requests_total', labels)).toBe(before + 2);
    expect(text).not.toMatch(/nothing-here|wp-login/);
  });

  it('answers a scrape while the database is down: no session lookup for its bearer token, no query', async () => {
    const down = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const pool = { query: down, connect: down } as unknown as pg.Pool;
    const db = drizzle(pool, { schema });
    const database: Database = {
      db,
      readDb: db,
      kind: 'postgres',
      exec: down,
      query: down,
      listen: () => ({ close: async () => {} }),
      close: async () => {},
    };
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '.test-data',
      SECRET_KEY: 'test-secret-key-0123456789',
      METRICS_TOKEN,
    });
    const app = await buildApp({ config, database, logger: false });
    afterAll(() => app.close());
    // Any other route with a token fails on the session lookup.
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v1/country/',
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).statusCode,
    ).toBe(503);
    const text = await scrape(app);
    expect(
      sampleOf(text, 'sc_http_requests_total', {
        method: 'GET',
        route: '/api/v1/country/',
        status_code: '503',
      }),
    ).toBe(1);
  });
});

describe('device upload metrics', () => {
  it('counts created, replayed and refused uploads by route', async () => {
    const setup = await setupUploader(t);
    const route = '/api/v1/patient/';
    const count = (text: string, outcome: string) =>
      sampleOf(text, 'sc_device_uploads_total', { route, outcome }) ?? 0;
    const before = await scrape();
    const body = patientBody(setup.device.serialNumber);
    const key = 'metrics-upload-key-0001';
    expect((await post(t, setup.token, '/patient/', body, key)).statusCode).toBe(201);
    const replay = await post(t, setup.token, '/patient/', body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await post(t, setup.token, '/patient/', { ...body, gender: 'NOT-A-GENDER' })).statusCode).toBe(
      400,
    );
    expect((await post(t, null, '/patient/', body)).statusCode).toBe(401);
    const after = await scrape();
    expect(count(after, 'created') - count(before, 'created')).toBe(1);
    expect(count(after, 'replayed') - count(before, 'replayed')).toBe(1);
    expect(count(after, 'refused') - count(before, 'refused')).toBe(2);
  });

  it('does not count a console create (no Idempotency-Key) as a device upload', async () => {
    const before = await scrape();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/patient/',
      headers: auth('0123456789abcdef0123456789abcdef'),
      payload: {},
    });
    const after = await scrape();
    expect(
      sampleOf(after, 'sc_device_uploads_total', { route: '/api/v1/patient/', outcome: 'refused' }),
    ).toBe(sampleOf(before, 'sc_device_uploads_total', { route: '/api/v1/patient/', outcome: 'refused' }));
  });
});

describe('job metrics', () => {
  it('reports queue depth once the queue runs, and webhook outcomes after deliveries', async () => {
    const ctx = t.app.ctx;
    const org = await createOrganization(t, {
      webhookSwitch: true,
      webhookUrl: receiver.url,
      webhookAuthToken: 'whk-token-0123456789',
    });
    const delivered = (text: string, outcome: string) =>
      sampleOf(text, 'sc_webhook_deliveries_total', { outcome }) ?? 0;
    const before = await scrape();

    receiver.respond((n) => (n === 1 ? 500 : 200));
    await createScan(ctx, scanInput({ organizationId: org.id }));
    // Queued, not yet run: the queue (started by the send) reports it.
    expect(sampleOf(await scrape(), 'sc_job_queue_depth', { queue: 'webhook-delivery' })).toBe(1);

    await ctx.services.queue.drain();
    const after = await scrape();
    expect(delivered(after, 'retry') - delivered(before, 'retry')).toBe(1);
    expect(delivered(after, 'delivered') - delivered(before, 'delivered')).toBe(1);
    expect(sampleOf(after, 'sc_job_queue_depth', { queue: 'webhook-delivery' })).toBe(0);

    receiver.respond(() => 500);
    await createScan(ctx, scanInput({ organizationId: org.id }));
    await ctx.services.queue.drain();
    expect(delivered(await scrape(), 'failed') - delivered(after, 'failed')).toBe(1);
  });

  it('counts failed handler runs by job name', async () => {
    const { queue } = t.app.ctx.services;
    queue.work('metrics-test-failing', async () => {
      throw new Error('boom');
    });
    await queue.send('metrics-test-failing', {}, { retryLimit: 1, retryDelaySeconds: 0 });
    await queue.drain();
    expect(sampleOf(await scrape(), 'sc_job_failures_total', { job: 'metrics-test-failing' })).toBe(2);
  });

  it('reports no queue depth while the job queue is not started, without starting it', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '.test-data',
      SECRET_KEY: 'test-secret-key-0123456789',
      METRICS_TOKEN,
    });
    const app = await buildApp({ config, database: t.database, logger: false });
    afterAll(() => app.close());
    const text = await scrape(app);
    expect(text).toContain('# TYPE sc_job_queue_depth gauge');
    expect(sampleOf(text, 'sc_job_queue_depth', { queue: 'webhook-delivery' })).toBeUndefined();
    expect(await app.ctx.services.queue.depths()).toBeNull();
  });
});

describe('database pool metrics', () => {
  it.runIf(ON_POSTGRES)('reports the primary pool’s connections on PostgreSQL', async () => {
    await Promise.all(Array.from({ length: 3 }, () => t.database.query('select pg_sleep(0.05)')));
    const text = await scrape();
    expect(sampleOf(text, 'sc_db_pool_connections', { pool: 'primary' })).toBeGreaterThanOrEqual(3);
    expect(sampleOf(text, 'sc_db_pool_idle_connections', { pool: 'primary' })).toBeGreaterThanOrEqual(3);
    expect(sampleOf(text, 'sc_db_pool_waiting_requests', { pool: 'primary' })).toBe(0);
    // No read pool configured: no series for one.
    expect(sampleOf(text, 'sc_db_pool_connections', { pool: 'read' })).toBeUndefined();
  });

  it.runIf(ON_POSTGRES)(
    'reports the read pool beside the primary when DATABASE_READ_URL is set',
    async () => {
      const url = t.database.pool!.options.connectionString!;
      const database = openPostgres(url, url);
      afterAll(() => database.close());
      const app = await buildApp({ config: t.app.ctx.config, database, logger: false });
      afterAll(() => app.close());
      await Promise.all([database.query('select 1'), database.readDb.execute(sql`select 1`)]);
      const text = await scrape(app);
      // The replica monitor (db/replica.ts) also reads the primary's WAL position on a connection of the pool.
      expect(sampleOf(text, 'sc_db_pool_connections', { pool: 'primary' })).toBeGreaterThanOrEqual(1);
      expect(sampleOf(text, 'sc_db_pool_connections', { pool: 'read' })).toBeGreaterThanOrEqual(1);
      // DATABASE_READ_URL names the primary here: not a standby, so not in use.
      expect(sampleOf(text, 'sc_db_replica_in_use', {})).toBe(0);
    },
  );

  it.runIf(!ON_POSTGRES)('reports no pool on the embedded database', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE sc_db_pool_connections gauge');
    expect(sampleOf(text, 'sc_db_pool_connections', { pool: 'primary' })).toBeUndefined();
  });
});
