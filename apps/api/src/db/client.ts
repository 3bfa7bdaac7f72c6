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
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = ReturnType<typeof drizzlePglite<Schema>> | ReturnType<typeof drizzlePg<Schema>>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Query functions accept either, so callers decide whether they run inside a transaction. */
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  /** Read replica when configured, else the primary. */
  readDb: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL for scripts and the job queue (multi-statement text without parameters allowed). */
  exec: (sql: string) => Promise<void>;
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  pglite?: PGlite;
  pool?: pg.Pool;
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

export async function openPglite(dataDir: string): Promise<Database> {
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
  const client = await PGlite.create({ dataDir: dir, ...PGLITE_OPTIONS });
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

export function openPostgres(url: string, readUrl?: string): Database {
  // Every session works in UTC; set at connection start so no query races the first statement.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: SESSION_OPTIONS });
  // An idle connection closed by the server (restart, failover, a dropped test database) must not crash the
  // process: the pool discards it and opens a new one on the next query.
  pool.on('error', onIdleClientError);
  const db = drizzlePg(pool, { schema });
  let readPool: pg.Pool | undefined;
  let readDb: Db = db;
  if (readUrl) {
    readPool = new pg.Pool({ connectionString: readUrl, max: 10, options: SESSION_OPTIONS });
    readPool.on('error', onIdleClientError);
    readDb = drizzlePg(readPool, { schema });
  }
  return {
    db,
    readDb,
    kind: 'postgres',
    pool,
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T,>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
    close: async () => {
      await pool.end();
      await readPool?.end();
    },
  };
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

export async function runMigrations(database: Database): Promise<void> {
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
