// The per-IP limits hold across instances: two apps on one database (two API instances behind a proxy) count the
// same hits, so N sign-ins split across them exhaust the limit and the next one is refused by either. The count is
// kept by one atomic upsert per hit; windows end by the database's clock; a database that cannot be reached answers
// 503, not 500; ended windows are pruned.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { pruneRateLimitHits, rateLimitPruneJob } from '../jobs/rate-limit-prune.job.ts';
import { SIGN_IN_PER_IP_PER_MINUTE } from '@sc/shared/auth';
import { JOBS } from '../services/queue/jobs.ts';
import { createTestDatabase } from '../test/database.ts';
import { HTTP_MESSAGES } from './errors.ts';

const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SECRET_KEY: 'test-secret-key-0123456789',
  // Injected requests come from 127.0.0.1, as from the proxy: X-Forwarded-For names the client.
  TRUST_PROXY: 'loopback',
} as const;

const database = await createTestDatabase();
// The second instance: its own pool on the same PostgreSQL database; on PGlite the same (single) connection.
const second: Database =
  database.kind === 'postgres' ? openPostgres(database.pool!.options.connectionString!) : database;
const [a, b] = await Promise.all(
  [database, second].map((db) => buildApp({ config: loadConfig(env), database: db, logger: false })),
);
const appA = a!;
const appB = b!;
afterAll(async () => {
  await appA.close();
  await appB.close();
  if (second !== database) await second.close();
  await database.close();
});

/** A wrong sign-in from `client` (as forwarded by the proxy) through `app`. */
const signIn = (app: FastifyInstance, client: string, url = '/api/v1/auth/password/') =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'x-forwarded-for': client },
    payload: { email: 'nobody@example.com', password: 'Wrong-pass1' },
  });

describe('per-IP limits across instances', () => {
  it('counts the sign-in limit across both instances: hits split between them exhaust it, either refuses the next', async () => {
    const client = '198.51.100.1';
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < SIGN_IN_PER_IP_PER_MINUTE; i++) {
      const res = await signIn(i % 2 ? appB : appA, client);
      statuses.push(res.statusCode);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    // One count, whichever instance answered.
    expect(remaining).toEqual(
      Array.from({ length: SIGN_IN_PER_IP_PER_MINUTE }, (_, i) => String(SIGN_IN_PER_IP_PER_MINUTE - i - 1)),
    );
    for (const app of [appA, appB]) {
      const refused = await signIn(app, client);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Another address, and another limited route for this address, each have their own allowance.
    expect((await signIn(appB, '198.51.100.2')).statusCode).toBe(400);
    expect((await signIn(appA, client, '/api/v1/auth/otp/verify/')).statusCode).not.toBe(429);
  });

  it('admits exactly the limit from many requests sent at once to both instances', async () => {
    const client = '198.51.100.3';
    const results = await Promise.all(
      Array.from({ length: SIGN_IN_PER_IP_PER_MINUTE * 2 }, (_, i) => signIn(i % 2 ? appB : appA, client)),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(SIGN_IN_PER_IP_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(SIGN_IN_PER_IP_PER_MINUTE);
  });

  it('opens a new window once the last one has ended by the database clock', async () => {
    const client = '198.51.100.4';
    for (let i = 0; i <= SIGN_IN_PER_IP_PER_MINUTE; i++) await signIn(appA, client);
    expect((await signIn(appB, client)).statusCode).toBe(429);
    // The minute passes.
    await database.query(
      `UPDATE rate_limit_hits SET expires_at = now() - interval '1 second' WHERE key LIKE $1`,
      [`% ${client}`],
    );
    const res = await signIn(appB, client);
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(SIGN_IN_PER_IP_PER_MINUTE - 1));
  });

  it('keeps one row per route and address', async () => {
    const rows = await database.query<{ key: string; hits: number }>(
      `SELECT key, hits FROM rate_limit_hits WHERE key LIKE '% 198.51.100.2'`,
    );
    expect(rows).toEqual([{ key: 'POST /api/v1/auth/password/ 198.51.100.2', hits: 1 }]);
  });
});

describe('the rate-limit prune job', () => {
  it('deletes the rows whose window has ended and keeps the others', async () => {
    await database.query(
      `INSERT INTO rate_limit_hits (key, hits, expires_at) VALUES
         ('POST /prune-test 192.0.2.1', 3, now() - interval '5 minutes'),
         ('POST /prune-test 192.0.2.2', 3, now() + interval '5 minutes')`,
    );
    await pruneRateLimitHits({ ...appA.ctx, now: () => new Date() });
    const left = await database.query<{ key: string }>(
      `SELECT key FROM rate_limit_hits WHERE key LIKE 'POST /prune-test %'`,
    );
    expect(left).toEqual([{ key: 'POST /prune-test 192.0.2.2' }]);
    expect(JOBS).toContain(rateLimitPruneJob);
  });
});

describe('a rate-limit store without its database', () => {
  it('answers 503 with Retry-After, not 500 and not unlimited, when the database cannot be reached', async () => {
    // Nothing listens on this port (8119 is this suite's own range).
    const unreachable = openPostgres('postgres://postgres@127.0.0.1:8119/none');
    const app = await buildApp({ config: loadConfig(env), database: unreachable, logger: false });
    try {
      const res = await signIn(app, '198.51.100.9');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ detail: HTTP_MESSAGES.databaseUnavailable });
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});
