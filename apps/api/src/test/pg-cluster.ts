// Throwaway PostgreSQL 15 clusters for tests: a primary and a streaming replica (pg_basebackup -R), each in a temp
// directory on a loopback port, built with Debian's binaries. Nothing here imports vitest: the stack test script uses
// it too. Usage:
//   const primary = await startPrimary({ port: 55441 });
//   const replica = await startReplica(primary, { port: 55442 });
//   …; await replica.stop(); await replica.start(); await replica.destroy(); await primary.destroy();
// Every cluster is also torn down when the process exits (even after a failed test), so none is left running.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 (postgresql-15); PG_BIN overrides it for another layout. */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

const isRoot = process.getuid?.() === 0;

/** The OS user the clusters run as: initdb and postgres refuse root, so as root they run as `postgres`. */
function clusterUser(): { uid: number; gid: number } | null {
  if (!isRoot) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Whether clusters can be made here: the binaries exist and, as root, a `postgres` user to run them. */
export const pgClusterAvailable: boolean =
  ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((b) => fs.existsSync(path.join(PG_BIN, b))) &&
  (!isRoot || clusterUser() !== null);

export type PgCluster = {
  readonly role: 'primary' | 'replica';
  readonly port: number;
  /** The cluster's data directory (PGDATA). */
  readonly dataDir: string;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** The same server, another database: `urlFor('sc_test')`. */
  urlFor: (database: string) => string;
  /** Whether the helper believes the server is up (after start, before stop/kill). */
  readonly running: boolean;
  /** Starts it again after stop/kill and waits until it accepts connections (a replica resumes streaming). */
  start: () => Promise<void>;
  /** A clean shutdown (`pg_ctl stop -m fast`): open connections are ended, nothing is lost. */
  stop: () => Promise<void>;
  /** A crash (`pg_ctl stop -m immediate`): no checkpoint; the next start runs crash recovery. */
  kill: () => Promise<void>;
  /** One query on a connection of its own (database `postgres` unless given). */
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[], database?: string) => Promise<T[]>;
  /** The last lines of the server's log, for a failure message. */
  logTail: (lines?: number) => string;
  /** Stops the server at once and removes its directory. Safe to call twice. */
  destroy: () => Promise<void>;
};

export type ReplicaCluster = PgCluster & {
  /** Waits until the replica has replayed everything the primary has written so far. */
  waitForReplay: (timeoutMs?: number) => Promise<void>;
};

type Internal = {
  root: string;
  dataDir: string;
  logFile: string;
  port: number;
  running: boolean;
  destroyed: boolean;
};

const live = new Set<Internal>();

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
async function pgRun(bin: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const file = path.join(PG_BIN, bin);
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const { stdout } = await run(cmd, argv, { timeout: timeoutMs, encoding: 'utf8' });
  return stdout;
}

function pgRunSync(bin: string, args: string[]): void {
  const file = path.join(PG_BIN, bin);
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  try {
    execFileSync(cmd, argv, { stdio: 'ignore', timeout: 15_000 });
  } catch {
    // Already stopped, or the directory is gone: nothing left to stop.
  }
}

/** A directory under the temp dir that the cluster's user owns; the socket goes there too (short path). */
function makeRoot(port: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `sc-pg-${port}-`));
  const user = clusterUser();
  if (user) fs.chownSync(root, user.uid, user.gid);
  return root;
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function urlOf(port: number, database = 'postgres'): string {
  return `postgres://postgres@127.0.0.1:${port}/${database}`;
}

async function startServer(c: Internal): Promise<void> {
  // -w waits until the server accepts connections (a replica: once it has reached a consistent state).
  const options = `-p ${c.port} -k ${c.root}`;
  try {
    await pgRun('pg_ctl', ['start', '-w', '-t', '60', '-D', c.dataDir, '-l', c.logFile, '-o', options]);
  } catch (error) {
    throw new Error(
      `PostgreSQL on port ${c.port} did not start: ${(error as Error).message}\n${tail(c.logFile)}`,
      {
        cause: error,
      },
    );
  }
  c.running = true;
}

async function stopServer(c: Internal, mode: 'fast' | 'immediate'): Promise<void> {
  if (!c.running) return;
  await pgRun('pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', c.dataDir]);
  c.running = false;
}

async function queryOn<T>(
  port: number,
  sql: string,
  params: unknown[] = [],
  database = 'postgres',
): Promise<T[]> {
  const client = new pg.Client({ connectionString: urlOf(port, database), connectionTimeoutMillis: 5000 });
  // A server stopped under the client would otherwise end the process with an unhandled 'error'.
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}

function handle(c: Internal, role: 'primary' | 'replica'): PgCluster {
  return {
    role,
    port: c.port,
    dataDir: c.dataDir,
    url: urlOf(c.port),
    urlFor: (database) => urlOf(c.port, database),
    get running() {
      return c.running;
    },
    start: () => startServer(c),
    stop: () => stopServer(c, 'fast'),
    kill: () => stopServer(c, 'immediate'),
    query: (sql, params, database) => queryOn(c.port, sql, params, database),
    logTail: (lines) => tail(c.logFile, lines),
    destroy: async () => {
      if (c.destroyed) return;
      c.destroyed = true;
      live.delete(c);
      if (c.running)
        await stopServer(c, 'immediate').catch(() =>
          pgRunSync('pg_ctl', ['stop', '-m', 'immediate', '-D', c.dataDir]),
        );
      fs.rmSync(c.root, { recursive: true, force: true });
    },
  };
}

// Whatever the tests did, no cluster outlives this process: stop each at once and remove its files.
function destroyAllSync(): void {
  for (const c of live) {
    if (c.running) pgRunSync('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', c.dataDir]);
    fs.rmSync(c.root, { recursive: true, force: true });
  }
  live.clear();
}
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', destroyAllSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      destroyAllSync();
      // Nobody else handles the signal: end the process as it would have ended without this handler.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

// Settings for a test cluster: replication on, durability off (a test's data is thrown away), loopback only.
const PRIMARY_CONF = [
  "listen_addresses = '127.0.0.1'",
  'wal_level = replica',
  'max_wal_senders = 5',
  'max_replication_slots = 5',
  'wal_keep_size = 256MB',
  'hot_standby = on',
  // Replies to the primary often, so pg_stat_replication and the replica's own LSNs are current.
  'wal_receiver_status_interval = 1s',
  // A replica whose primary went away tries again every half second, not every 5 s.
  'wal_retrieve_retry_interval = 500ms',
  'fsync = off',
  'full_page_writes = off',
  'max_connections = 100',
  'shared_buffers = 32MB',
  "timezone = 'UTC'",
  'logging_collector = off',
];

/** A cluster's directories under a fresh root, tracked so the exit hook can remove it. */
function newCluster(port: number): Internal {
  const root = makeRoot(port);
  const c: Internal = {
    root,
    dataDir: path.join(root, 'data'),
    logFile: path.join(root, 'server.log'),
    port,
    running: false,
    destroyed: false,
  };
  live.add(c);
  return c;
}

/** initdb + start: a primary ready for replicas, trust auth on 127.0.0.1 (replication too). */
export async function startPrimary(options: { port: number }): Promise<PgCluster> {
  if (!pgClusterAvailable)
    throw new Error(`PostgreSQL binaries not found in ${PG_BIN} (or no postgres user)`);
  installExitHook();
  const c = newCluster(options.port);
  const cluster = handle(c, 'primary');
  try {
    await pgRun('initdb', [
      '-D',
      c.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--locale=C.UTF-8',
    ]);
    fs.appendFileSync(
      path.join(c.dataDir, 'postgresql.conf'),
      `\n# test cluster (pg-cluster.ts)\n${PRIMARY_CONF.join('\n')}\n`,
    );
    // initdb's trust pg_hba already lets 127.0.0.1 replicate; say it outright so a changed default cannot break it.
    fs.appendFileSync(
      path.join(c.dataDir, 'pg_hba.conf'),
      '\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
    );
    await startServer(c);
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/** A hot standby of `primary` (pg_basebackup -R -X stream), started on its own port and streaming. */
export async function startReplica(primary: PgCluster, options: { port: number }): Promise<ReplicaCluster> {
  installExitHook();
  const c = newCluster(options.port);
  const cluster = handle(c, 'replica');
  try {
    await pgRun('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      c.dataDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await startServer(c);
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  const replica: ReplicaCluster = {
    ...cluster,
    // The spread above copied `running` as a value; keep it live.
    get running() {
      return c.running;
    },
    waitForReplay: async (timeoutMs = 15_000) => {
      const [{ lsn } = { lsn: '' }] = await primary.query<{ lsn: string }>(
        'SELECT pg_current_wal_lsn()::text AS lsn',
      );
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await replica
          .query<{ done: boolean }>(
            'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS done',
            [lsn],
          )
          .catch(() => [{ done: false }]);
        if (row?.done) return;
        if (Date.now() > deadline)
          throw new Error(`replica on ${c.port} did not replay up to ${lsn}\n${tail(c.logFile)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  await replica.waitForReplay(30_000);
  return replica;
}
