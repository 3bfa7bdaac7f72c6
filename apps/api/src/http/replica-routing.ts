// Read-your-own-writes with a read replica, across API instances and without shared memory: after a request that may
// have written (any method but GET/HEAD/OPTIONS, answered below 400), the answer carries a cookie with the primary's
// WAL position after it; the browser sends it back, and a later using_read_db=true read goes to the replica only once
// the replica has replayed that far (db/replica.ts decides). Only with DATABASE_READ_URL; without it every read is
// on the primary.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatLsn, parseLsn, runWithReadContext } from '../db/replica.ts';

export const READ_AFTER_COOKIE = 'sc_read_after';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The cookie lives a little longer than the lag bound: once it has expired, a replica the monitor still calls healthy
 * has replayed what the primary had at most REPLICA_MAX_LAG_MS ago, which is after the write, so the write shows.
 */
export function readAfterMaxAgeSeconds(maxLagMs: number): number {
  return Math.ceil(maxLagMs / 1000) + 5;
}

/** The client's last-write position from its Cookie header; null when absent or not a WAL position. */
export function readAfterLsn(request: FastifyRequest): bigint | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== READ_AFTER_COOKIE) continue;
    return parseLsn(decodeURIComponent(part.slice(eq + 1).trim()).replace(/^"|"$/g, ''));
  }
  return null;
}

export function registerReplicaRouting(app: FastifyInstance): void {
  const { replica, pool } = app.ctx.database;
  if (!replica || !pool) return;
  const maxAge = readAfterMaxAgeSeconds(replica.monitor.maxLagMs);

  // preHandler, in callback form: the handler and everything it awaits run inside this context (no body parsing
  // stands between, which would lose it).
  app.addHook('preHandler', (request, _reply, done) => {
    runWithReadContext({ minLsn: readAfterLsn(request) }, done);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A refused request (4xx, 5xx) committed nothing the client will look for: no cookie, no query.
    if (SAFE_METHODS.has(request.method) || reply.statusCode >= 400 || !request.url.startsWith('/api/'))
      return payload;
    try {
      // The insert position: at or past the end of every record this request's transactions wrote (committed before
      // the answer is sent), even under synchronous_commit=off.
      const { rows } = await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn !== null) {
        const secure = request.protocol === 'https' ? '; Secure' : '';
        void reply.header(
          'set-cookie',
          `${READ_AFTER_COOKIE}=${formatLsn(lsn)}; Max-Age=${maxAge}; Path=/api; HttpOnly; SameSite=Lax${secure}`,
        );
      }
    } catch (error) {
      // The primary is out of reach: the request's own write most likely failed with it. The answer goes out as is.
      request.log.warn({ err: error }, 'read-after position not set');
    }
    return payload;
  });
}
