// Health and readiness for operators and load balancers (issue 25), outside /api/v1 and the API document:
// - GET /healthz: the process is alive and answering (no database call);
// - GET /readyz: this instance should get traffic: the database answers, its migrations are at this code's head, the
//   session-revocation listener is live (a cached session could otherwise outlive its revocation) and the file store
//   is reachable. 503 names the failed checks and nothing else (no hosts, versions, errors or counts): it is public.
// Both are cheap enough to poll every second: one `select 1` per poll (never two at once), the migration count only
// until it is at head, the store's answer kept STORAGE_CHECK_TTL_MS. No session lookup, no rate limit, no log line
// below warn. While the server shuts down (markNotReady, or app.close()) /readyz answers 503 so a proxy stops sending.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import { MIGRATIONS_DIR, type Database } from '../db/client.ts';
import type { Storage } from '../services/storage/storage.ts';
import { sessionCaches } from './authenticate.ts';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** The checks /readyz names when they fail; `shutdown` while the server is stopping. */
export type ReadinessCheck = 'database' | 'migrations' | 'listener' | 'storage' | 'shutdown';

/** A `select 1` slower than this counts as the database being unavailable. */
export const DATABASE_CHECK_TIMEOUT_MS = 1_000;
/** The store's reachability is asked again after this long; polls in between reuse the answer. */
export const STORAGE_CHECK_TTL_MS = 1_500;

/** Routes for probes and scrapers: no session lookup (a token header is ignored), no docs entry, logged at warn only. */
export const OPERATOR_ROUTE: RouteShorthandOptions = {
  schema: { hide: true },
  logLevel: 'warn',
  config: { sessionless: true },
};

const stopping = new WeakSet<FastifyInstance>();

/**
 * From now on /readyz answers 503 (`shutdown`), while every other route keeps answering: call it first on SIGTERM,
 * before waiting for the proxy to notice and closing the server. `app` is the app buildApp returned.
 */
export function markNotReady(app: FastifyInstance): void {
  stopping.add(app);
}

export type Readiness = { failed: ReadinessCheck[] };

/** Runs the checks of one app; each instance keeps its own caches. */
export function createReadinessProbe(app: FastifyInstance, database: Database, storage: Storage) {
  const headCount = migrationsInJournal();
  let migrationsAtHead = false;
  let databaseCheck: Promise<DatabaseAnswer> | null = null;
  let storageCheck: Promise<boolean> | null = null;
  let storageAnswer: { reachable: boolean; at: number } | null = null;

  /** One `select 1` at a time, however many pollers: a hung server must not take the pool's connections. */
  const databaseAnswer = (): Promise<DatabaseAnswer> => {
    databaseCheck ??= selectOne(database).finally(() => {
      databaseCheck = null;
    });
    return withTimeout(databaseCheck, DATABASE_CHECK_TIMEOUT_MS);
  };

  const storageReachable = async (): Promise<boolean> => {
    if (storageAnswer && performance.now() - storageAnswer.at < STORAGE_CHECK_TTL_MS)
      return storageAnswer.reachable;
    storageCheck ??= storage
      .isReachable()
      .catch(() => false)
      .then((reachable) => {
        storageAnswer = { reachable, at: performance.now() };
        return reachable;
      })
      .finally(() => {
        storageCheck = null;
      });
    return storageCheck;
  };

  return async (): Promise<Readiness> => {
    const failed: ReadinessCheck[] = [];
    if (stopping.has(app)) failed.push('shutdown');
    const [databaseAnswered, storageUp] = await Promise.all([
      // A pooled connection the server dropped fails at once and is discarded: a second try gets a new one, so
      // /readyz turns true with the first poll after the database is back. A timeout is not tried again.
      databaseAnswer().then(async (answer) => (answer === 'down' ? databaseAnswer() : answer)),
      storageReachable(),
    ]);
    const databaseUp = databaseAnswered === 'up';
    if (!databaseUp) failed.push('database');
    // Once at head, at head for the life of the process: migrations only ever move forward.
    if (!migrationsAtHead && databaseUp) migrationsAtHead = (await appliedMigrations(database)) >= headCount;
    if (!migrationsAtHead) failed.push('migrations');
    // Only an app that keeps sessions in memory listens; without the listener it reads every session from the database.
    if (sessionCaches.get(app)?.isLive === false) failed.push('listener');
    if (!storageUp) failed.push('storage');
    return { failed };
  };
}

/** Registers GET /healthz and GET /readyz (HEAD too) on the app buildApp made. */
export function registerHealthRoutes(app: FastifyInstance): void {
  const { database, services } = app.ctx;
  const probe = createReadinessProbe(app, database, services.storage);
  app.addHook('preClose', async () => markNotReady(app));

  app.get(HEALTH_PATH, OPERATOR_ROUTE, async (_request, reply) => noStore(reply).send({ status: 'ok' }));
  app.get(READY_PATH, OPERATOR_ROUTE, async (_request, reply) => {
    const { failed } = await probe();
    noStore(reply);
    if (failed.length === 0) return reply.send({ status: 'ok' });
    return reply.status(503).send({ status: 'unavailable', failed });
  });
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

type DatabaseAnswer = 'up' | 'down' | 'timeout';

async function selectOne(database: Database): Promise<DatabaseAnswer> {
  try {
    await database.query('select 1');
    return 'up';
  } catch {
    return 'down';
  }
}

/** `promise`'s answer, or 'timeout' when it takes longer than `ms` (it goes on; its late answer is dropped). */
function withTimeout(promise: Promise<DatabaseAnswer>, ms: number): Promise<DatabaseAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<DatabaseAnswer>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** How many migrations this code ships (drizzle's journal). */
export function migrationsInJournal(dir: string = MIGRATIONS_DIR): number {
  const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Migrations drizzle recorded as applied; 0 when its table is missing (an empty database) or cannot be read. */
async function appliedMigrations(database: Database): Promise<number> {
  try {
    const [row] = await database.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    return row?.n ?? 0;
  } catch {
    return 0;
  }
}
