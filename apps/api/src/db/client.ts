// The database: PGlite on disk under DATA_DIR when DATABASE_URL is unset, else node-postgres.
// A second handle reads from DATABASE_READ_URL when set (requests with using_read_db=true).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';
import { listenPglite, listenPostgres, type ListenHandlers, type Listener } from './listener.ts';
import { ReadRoutingPool, ReplicaMonitor, type ReplicaState } from './replica.ts';

export type ReplicaRouting = { pool: pg.Pool; monitor: ReplicaMonitor; router: ReadRoutingPool };
/** REPLICA_MAX_LAG_MS's default (config.ts). */
export const DEFAULT_REPLICA_MAX_LAG_MS = 2000;

export type Schema = typeof schema;
export type Db = ReturnType<typeof drizzlePglite<Schema>> | ReturnType<typeof drizzlePg<Schema>>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Query functions accept either, so callers decide whether they run inside a transaction. */
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  /**
   * Reads that may come from the replica (using_read_db=true): with DATABASE_READ_URL each query goes to the replica
   * or, when it is down, behind or has not yet replayed the client's own write, to the primary (db/replica.ts);
   * otherwise the primary's handle. Only SELECTs go through it. Pick it with `readerFor`.
   */
  readDb: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL for scripts and the job queue (multi-statement text without parameters allowed). */
  exec: (sql: string) => Promise<void>;
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  pglite?: PGlite;
  pool?: pg.Pool;
  /** With DATABASE_READ_URL: the replica's pool, its monitor and the router behind `readDb` (db/replica.ts). */
  replica?: ReplicaRouting;
  /** LISTEN on the primary, on a connection of its own (db/listener.ts). */
  listen: (channel: string, handlers: ListenHandlers) => Listener;
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

export const PGLITE_OPTIONS = {
  extensions: { pg_trgm },
  // Without these the data directory grows past 1 GB after bulk loads (STACK.md).
  postgresqlconf: ['max_wal_size = 64MB', 'min_wal_size = 32MB'],
};

// COUNT(*) and other bigints come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function wrapPglite(client: PGlite, lockFile?: string): Database {
  const db = drizzlePglite(client, { schema });
  return {
    db,
    readDb: db,
    kind: 'pglite',
    pglite: client,
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T,>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    close: async () => {
      if (!client.closed) await client.close();
      if (lockFile) fs.rmSync(lockFile, { force: true });
    },
  };
}

/** Another live process holds the embedded database directory (PGlite has no guard of its own). */
export class DatabaseInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(`The database in ${directory} is in use by process ${pid}.`);
  }
}

/** `loadDataDir`: a data directory dumped by PGlite's dumpDataDir(), unpacked into an empty pgdata (backup restore). */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const dir = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dataDir, { recursive: true });
  // PGlite has no guard against a second process opening the same directory: hold a lock file.
  const lockFile = path.join(dataDir, 'pgdata.lock');
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && isAlive(pid)) throw new DatabaseInUseError(dataDir, pid);
    fs.writeFileSync(lockFile, String(process.pid));
  }
  const client = await PGlite.create({ dataDir: dir, ...PGLITE_OPTIONS, ...options });
  return wrapPglite(client, lockFile);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return pid !== process.pid;
  } catch {
    return false;
  }
}

// Every session in UTC; JIT off: the console's queries are short, and PostgreSQL's JIT, switched on by a high row
// estimate, spent 8–10 ms compiling a dashboard chart query that runs in 0.5 ms (issue 9's bench).
const SESSION_OPTIONS = '-c TimeZone=UTC -c jit=off';

/**
 * The replica's connections refuse writes themselves (defence in depth: a standby refuses them anyway, and so does this
 * when DATABASE_READ_URL points at a server that is not one), and give up connecting after 2 s instead of leaving a
 * read waiting on a replica that does not answer (the read then runs on the primary: db/replica.ts).
 */
const READ_SESSION_OPTIONS = `${SESSION_OPTIONS} -c default_transaction_read_only=on`;
const READ_CONNECT_TIMEOUT_MS = 2000;

export type PostgresOptions = {
  /** REPLICA_MAX_LAG_MS: past this lag reads leave the replica for the primary (db/replica.ts). */
  replicaMaxLagMs?: number;
};

export function openPostgres(url: string, readUrl?: string, options: PostgresOptions = {}): Database {
  const pool = connectionPool(url);
  const db = drizzlePg(pool, { schema });
  let readDb: Db = db;
  let replica: ReplicaRouting | undefined;
  if (readUrl) {
    const readPool = connectionPool(readUrl, {
      options: READ_SESSION_OPTIONS,
      connectionTimeoutMillis: READ_CONNECT_TIMEOUT_MS,
    });
    const maxLagMs = options.replicaMaxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS;
    const monitor = new ReplicaMonitor(pool, readPool, maxLagMs, Date.now, onReplicaChange);
    const router = new ReadRoutingPool(pool, readPool, monitor);
    readDb = drizzlePg(router as unknown as pg.Pool, { schema });
    replica = { pool: readPool, monitor, router };
    monitor.start();
  }
  return {
    db,
    readDb,
    ...(replica ? { replica } : {}),
    kind: 'postgres',
    pool,
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T,>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
    listen: (channel, handlers) => listenPostgres(url, channel, handlers, { sessionOptions: SESSION_OPTIONS }),
    close: async () => {
      await replica?.monitor.stop();
      await pool.end();
      await replica?.pool.end();
    },
  };
}

/**
 * A pool that outlives its connections (a server restart or failover, a terminated backend, a network cut):
 * node-postgres emits `error` on a connection that dies, and an `error` nobody listens to ends the process. The pool
 * listens only while a connection is idle (it discards it and opens another on the next query); this listener is
 * there while one is checked out (a transaction, a COPY), and returns the dead connection to the pool itself, which
 * discards it: a user that never releases it on the way out of its failure (drizzle's `transaction` when its BEGIN
 * fails) would otherwise keep it checked out for ever, and the pool, one connection short each time, would end up
 * with none. The loss reaches the user as the failure of its query in flight or of its next one (the request
 * answers 503, http/errors.ts); its own release, later, does nothing.
 */
function connectionPool(url: string, overrides: pg.PoolConfig = {}): pg.Pool {
  // Every session works in UTC; set at connection start so no query races the first statement.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: SESSION_OPTIONS, ...overrides });
  pool.on('error', onIdleClientError);
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      if (!checkedOut.has(client)) return;
      const release = client.release;
      client.release = () => {};
      release(error);
    }),
  );
  return pool;
}

// One line when reads leave the replica or come back to it (not one per sample).
function onReplicaChange(healthy: boolean, state: ReplicaState): void {
  if (healthy) console.warn('database: reads with using_read_db go to the read replica again');
  else if (!state.reachable) console.warn('database: the read replica is unreachable; its reads go to the primary');
  else if (!state.standby) console.warn('database: DATABASE_READ_URL is not a standby; its reads go to the primary');
  else console.warn(`database: the read replica lags ${Math.round(state.lagMs)} ms; its reads go to the primary`);
}

function onIdleClientError(error: Error): void {
  console.warn(`database: an idle connection was closed (${error.message})`);
}

/** How many migrations drizzle has recorded as applied (0 on an empty database). */
async function appliedMigrations(database: Database): Promise<number> {
  const [table] = await database.query<{ name: string | null }>(
    `select to_regclass('drizzle.__drizzle_migrations')::text as name`,
  );
  if (!table?.name) return 0;
  const [row] = await database.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
  return row?.n ?? 0;
}

/**
 * The key of the start-up lock (migrations, then the demo load): the ASCII bytes of 'SCMIGRAT' as a bigint. Outside
 * the int4 range, so it cannot meet pg-boss's advisory locks (hashtext, 32 bits); the per-account sign-in locks
 * (hashtextextended, 64 bits) meet it with a chance of one in 2^64.
 */
export const STARTUP_LOCK_KEY = 5999724105712157012n;

/**
 * Runs `work` while this process holds the start-up lock, so that instances starting together on one PostgreSQL
 * database migrate (and load the demo) one after another: the first does the work, the others wait for it, then
 * find nothing left to do. The lock is a session-level `pg_advisory_lock` on a connection checked out for it alone
 * (the work itself runs on the rest of the pool); the connection is destroyed afterwards, not returned, so the lock
 * is gone even when the unlock could not be sent. PGlite: one process per data directory (its lock file), no lock.
 */
export async function withStartupLock<T>(
  database: Database,
  work: () => Promise<T>,
  options: StartupLockOptions = {},
): Promise<T> {
  if (!database.pool) return work();
  const client = await database.pool.connect();
  try {
    const key = STARTUP_LOCK_KEY.toString();
    const [row] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key])).rows;
    if (!row?.locked) {
      options.onWait?.();
      await client.query('SELECT pg_advisory_lock($1)', [key]);
    }
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    // `true`: the pool closes this connection instead of keeping it (PostgreSQL drops a session's locks with it).
    client.release(true);
  }
}

export type StartupLockOptions = {
  /** Called when another instance holds the lock, before waiting for it (the server says so on its console). */
  onWait?: () => void;
};

/** Brings the schema to head; on PostgreSQL under the start-up lock (two instances starting at once: one migrates). */
export async function runMigrations(database: Database, options: StartupLockOptions = {}): Promise<void> {
  await withStartupLock(database, () => migrateToHead(database), options);
}

async function migrateToHead(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const before = await appliedMigrations(database);
    await migratePglite(database.db as ReturnType<typeof drizzlePglite<Schema>>, { migrationsFolder: MIGRATIONS_DIR });
    // PGlite has no autovacuum: tables and indexes a migration adds to an existing database have no planner
    // statistics until ANALYZE, and plans stay slow (a fresh database is analyzed after its demo load).
    if (before > 0 && (await appliedMigrations(database)) > before) await database.exec('ANALYZE');
  } else {
    await migratePg(database.db as ReturnType<typeof drizzlePg<Schema>>, { migrationsFolder: MIGRATIONS_DIR });
  }
}

// ---- Prepared statements ---------------------------------------------------------------------------------------------

/** Query shapes a family of prepared statements keeps per database handle; more shapes run as one-off statements. */
export const PREPARED_SHAPES_MAX = 64;
let preparedNames = 0;

/**
 * Named prepared statements for hot queries (the session lookup, the first page of a list and its count). `build`
 * returns drizzle's `.prepare(name)` of a query whose varying values are `sql.placeholder`s; it runs once per
 * database handle and `shape` (a key naming everything that changes the SQL text), and the result is reused, so
 * the query is built once instead of on every request. On PostgreSQL node-postgres sends a named statement's Parse
 * once per pool connection and PostgreSQL keeps its plan: after five custom plans it switches to one generic plan
 * when that is no dearer (check with EXPLAIN EXECUTE that the generic plan suits skewed values; leave a shape out
 * when it does not). On PGlite the name is ignored (one connection, no plan cache to gain). Each name is unique in
 * the process; at most PREPARED_SHAPES_MAX shapes per handle are named (a named statement stays on every pool
 * connection for its life), further shapes are built on each call and run unnamed (`name` '').
 * `plannedEachCall`: the query is built once per shape but always runs unnamed, so PostgreSQL plans it for each call's
 * values (a text search, whose best plan depends on the term) while Node skips building its SQL.
 */
export function preparedQueries<P, A = undefined>(
  family: string,
  build: (db: Db, name: string, args: A) => P,
  options: { plannedEachCall?: boolean } = {},
) {
  const byDb = new WeakMap<Db, Map<string, P>>();
  /** The prepared query of `shape`; `args` (what builds it) are used only when this shape is first seen. */
  return (db: Db, shape: string, args: A): P => {
    let shapes = byDb.get(db);
    if (!shapes) byDb.set(db, (shapes = new Map()));
    const known = shapes.get(shape);
    if (known) return known;
    // '' is the unnamed statement for node-postgres: parsed and planned on each call, as an unprepared query.
    if (shapes.size >= PREPARED_SHAPES_MAX) return build(db, '', args);
    const prepared = build(db, options.plannedEachCall ? '' : `${family}_${++preparedNames}`, args);
    shapes.set(shape, prepared);
    return prepared;
  };
}

/**
 * How a value enters a query's SQL: as itself (a parameter of a one-off query) or, in a prepared query, as the
 * placeholder `name` whose value each execution passes (placeholdersOf records them). Query builders that serve
 * both take a Bind (default asValue).
 */
export type Bind = (name: string, value: unknown) => unknown;
export const asValue: Bind = (_name, value) => value;

/** A Bind that writes placeholders and records each value under its name, for `prepared.execute(values)`. */
export function placeholdersOf(): { bind: Bind; values: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  return {
    values,
    bind: (name, value) => {
      values[name] = value;
      return sql.placeholder(name);
    },
  };
}

/**
 * A LIMIT written into the statement (drizzle sends a number as a parameter, `LIMIT $n`, and PostgreSQL plans an
 * unknown limit as 10 % of the rows, so a prepared page query would never get its generic plan). Only for integers
 * the caller validated; typed as drizzle's `limit()` argument, which puts an SQL object in the text as written.
 */
export function literalLimit(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not a row limit: ${n}`);
  return sql.raw(String(n)) as unknown as number;
}
