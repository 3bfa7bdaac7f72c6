// The counts of @fastify/rate-limit's per-IP limits, kept in the database (rate_limit_hits, migration 0022) instead of
// each process's memory: every API instance behind the proxy counts the same hits, so two instances no longer double
// a limit. A fixed window per route and client address, as the plugin's own memory store: the first hit opens it for
// `timeWindow`, later hits count in it, the first hit after it ends opens the next. Each hit is one atomic upsert,
// timed by the database's clock (the instances' clocks need not agree).
// If the database cannot be reached the hit fails and the request answers 503 with Retry-After (http/errors.ts),
// not 500 and not unlimited: every limited route needs the database for its own work anyway.
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { Database } from '../db/client.ts';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** What the plugin passes to `child`: the route's merged limit options (typed loosely by the plugin). */
type ChildOptions = {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
};

// `now()` is the statement's start: one instant for the whole upsert. An expired row is restarted in place.
const HIT_SQL = `
  INSERT INTO rate_limit_hits AS h (key, hits, expires_at)
  VALUES ($1, 1, now() + $2::float8 * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN h.expires_at <= now() THEN 1 ELSE h.hits + 1 END,
    expires_at = CASE WHEN h.expires_at <= now() THEN excluded.expires_at ELSE h.expires_at END
  RETURNING h.hits AS current, greatest(0, ceil(extract(epoch FROM h.expires_at - now()) * 1000))::float8 AS ttl`;

/** Deletes up to `limit` rows whose window ended before `before`; returns how many (jobs/rate-limit-prune.job.ts). */
export async function deleteExpiredRateLimitHits(
  database: Database,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await database.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM rate_limit_hits WHERE key IN (
         SELECT key FROM rate_limit_hits WHERE expires_at < $1 LIMIT $2
       ) RETURNING 1
     ) SELECT count(*)::int AS n FROM gone`,
    [before.toISOString(), limit],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The store class to give @fastify/rate-limit (`store:`), counting in `database`'s primary. Each route's limit
 * (`child`) counts apart, under its method and URL, as the memory store keeps one map per route.
 */
export function databaseRateLimitStore(database: Database): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly scope = '*',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      database.query<Counted>(HIT_SQL, [`${this.scope} ${key}`, timeWindow]).then(
        ([row]) =>
          callback(null, { current: Number(row?.current ?? 1), ttl: Number(row?.ttl ?? timeWindow) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const options = routeOptions as ChildOptions;
      // Only the fixed window is kept here; a route asking for more would silently get less.
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error(
          'The database rate-limit store keeps fixed windows only (no continueExceeding or exponentialBackoff).',
        );
      }
      const method = [options.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore({}, `${method} ${options.routeInfo?.url ?? ''}`);
    }
  }
  return DatabaseRateLimitStore;
}
