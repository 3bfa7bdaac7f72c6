// The read replica (DATABASE_READ_URL): which reads it may serve, decided in one place.
// A monitor samples the primary's WAL position and the replica's replay position every half second; the replica
// serves a read only while it is reachable and has replayed WAL the primary had written no more than
// REPLICA_MAX_LAG_MS ago, and (read-your-own-writes) has replayed the request's own last write, whose position the
// API hands the browser in a cookie after each write (http/replica-routing.ts). Otherwise the read goes to the
// primary; a read the replica fails with a lost connection is run once more on the primary.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../http/errors.ts';
import type { Database, Db } from './client.ts';

/**
 * The handle a read uses: `readDb` when the request asked for the read replica (using_read_db=true), else `db`. The one
 * place that choice is made; which server then answers each query is ReadRoutingPool's.
 */
export function readerFor(database: Pick<Database, 'db' | 'readDb'>, usingReadDb: boolean | undefined): Db {
  return usingReadDb ? database.readDb : database.db;
}

/** How often the monitor samples both servers. */
export const REPLICA_SAMPLE_MS = 500;
/** A sample query that takes longer than this counts as a failure (a replica that hangs is a replica that is down). */
const SAMPLE_TIMEOUT_MS = 1000;

/** A WAL position ('16/B374D848') as a number of bytes; null when the text is not one. */
export function parseLsn(text: unknown): bigint | null {
  if (typeof text !== 'string') return null;
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** What one request needs from the replica: the WAL position of its client's last write (the cookie), if any. */
export type ReadContext = { minLsn: bigint | null };
const readContext = new AsyncLocalStorage<ReadContext>();

/** Runs `fn` (the rest of a request) with the client's last-write position known to every read it makes. */
export function runWithReadContext<T>(context: ReadContext, fn: () => T): T {
  return readContext.run(context, fn);
}

/**
 * `items` read in the current request's context, whoever asks for the next one: a CSV file's later batches are
 * fetched when the client's socket drains, outside the request's context, and would otherwise lose its last-write
 * position (and read from a replica that has not replayed the client's own write).
 */
export function keepReadContext<T>(items: Iterable<T> | AsyncIterable<T>): Iterable<T> | AsyncIterable<T> {
  const context = readContext.getStore();
  if (!context) return items;
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => readContext.run(context, async () => iterator.next()),
      return: async () =>
        (await readContext.run(context, async () => iterator.return?.())) ?? { done: true, value: undefined },
    }),
  };
}

/** The current request's read context (tests). */
export const currentReadContext = (): ReadContext | undefined => readContext.getStore();

export type ReplicaState = {
  /** The last sample reached the replica. */
  reachable: boolean;
  /** The server it reached is in recovery (a standby); false: DATABASE_READ_URL names a primary (or a promoted one). */
  standby: boolean;
  /** Milliseconds since the primary had only what the replica has replayed (Infinity: not known). */
  lagMs: number;
  /** The replica's replay position at the last sample. */
  replayLsn: bigint | null;
  /** Whether reads without a pending own write go to the replica now. */
  healthy: boolean;
};

type Sample = { at: number; lsn: bigint };

/**
 * Keeps whether the replica is reachable and how far behind it is. Lag is measured in time, not bytes: the monitor
 * remembers the primary's WAL position at each sample (taken when its query was sent, so everything committed before
 * that moment is at or below it); the replica's lag is the age of the newest primary sample its replay position has
 * reached. An idle primary's position does not move, so an idle replica that has replayed it shows no lag; a sample
 * that fails or stops arriving lets the lag grow with the clock, so a replica that hangs goes unhealthy by itself.
 */
export class ReplicaMonitor {
  private samples: Sample[] = [];
  private freshAt = Number.NEGATIVE_INFINITY;
  private replay: bigint | null = null;
  private reachable = false;
  private standby = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private closed = false;

  private wasHealthy: boolean | undefined;

  constructor(
    private readonly primary: pg.Pool,
    private readonly replica: pg.Pool,
    readonly maxLagMs: number,
    private readonly now: () => number = Date.now,
    /** Told when reads start or stop going to the replica (the operator's log line), with why. */
    private readonly onChange?: (healthy: boolean, state: ReplicaState) => void,
  ) {}

  /** Samples now, then every REPLICA_SAMPLE_MS; the timer does not keep the process alive. */
  start(intervalMs = REPLICA_SAMPLE_MS): void {
    if (this.timer || this.closed) return;
    void this.sample();
    this.timer = setInterval(() => void this.sample(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /** One sample of both servers (skipped while the previous one is still out). */
  sample(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.takeSample()
      .then(() => this.reportChange())
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private reportChange(): void {
    if (this.closed) return;
    const state = this.state();
    if (state.healthy === this.wasHealthy) return;
    // The first sample reports only a replica that is not usable (a healthy start is the expected one).
    if (this.wasHealthy !== undefined || !state.healthy) this.onChange?.(state.healthy, state);
    this.wasHealthy = state.healthy;
  }

  private async takeSample(): Promise<void> {
    const at = this.now();
    const [primary, replica] = await Promise.allSettled([
      withTimeout(this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')),
      withTimeout(this.replica.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')),
    ]);
    if (this.closed) return;
    if (primary.status === 'fulfilled') {
      const lsn = parseLsn(primary.value.rows[0]?.lsn);
      if (lsn !== null) {
        this.samples.push({ at, lsn });
        // Samples older than the bound can no longer make the replica fresh enough: keep the newest stale one only.
        while (this.samples.length > 2 && this.samples[1]!.at < at - this.maxLagMs) this.samples.shift();
      }
    }
    if (replica.status === 'rejected') {
      this.reachable = false;
      return;
    }
    const replay = parseLsn(replica.value.rows[0]?.lsn);
    // null: the server is not in recovery (not a replica, or promoted): nothing says it follows this primary.
    this.reachable = true;
    this.standby = replay !== null;
    this.replay = replay;
    if (replay === null) return;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const s = this.samples[i]!;
      if (s.lsn <= replay) {
        this.freshAt = Math.max(this.freshAt, s.at);
        break;
      }
    }
  }

  /** The replica failed a read with a lost connection: route reads to the primary until a sample reaches it again. */
  markUnreachable(): void {
    this.reachable = false;
  }

  state(): ReplicaState {
    const usable = this.reachable && this.standby;
    const lagMs = usable ? Math.max(0, this.now() - this.freshAt) : Number.POSITIVE_INFINITY;
    return {
      reachable: this.reachable,
      standby: this.standby,
      lagMs,
      replayLsn: this.replay,
      healthy: usable && lagMs <= this.maxLagMs,
    };
  }

  /** Whether this read may go to the replica: healthy, and past the client's own last write if it has one. */
  mayServe(context: ReadContext | undefined): boolean {
    const { healthy, replayLsn } = this.state();
    if (!healthy) return false;
    const minLsn = context?.minLsn ?? null;
    return minLsn === null || (replayLsn !== null && replayLsn >= minLsn);
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('replica sample timed out')), SAMPLE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Statements a read may send. The replica refuses writes by itself; this also holds when a read falls back to the
// primary, so code that wrongly writes through the read handle fails in every configuration, not only in production.
const READ_STATEMENT = /^\s*(\(\s*)*(select|with|values|table|show|explain)\b/i;

/** A standby cancelled the query to apply WAL (SQLSTATE 40001 from a recovery conflict): the primary can answer it. */
function isRecoveryConflict(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === '40001' && /conflict with recovery/i.test(e.message)) return true;
  }
  return false;
}

type QueryConfig = string | { text: string };

/**
 * The read handle's "pool" for drizzle (its name must contain Pool: drizzle checks it before a transaction): each
 * query goes to the replica when the monitor says it may serve this request, else to the primary. A query the replica
 * fails with a lost connection or a recovery conflict runs once more on the primary, so a replica that goes away
 * costs the client nothing but time.
 */
export class ReadRoutingPool {
  constructor(
    readonly primary: pg.Pool,
    readonly replica: pg.Pool,
    readonly monitor: ReplicaMonitor,
  ) {}

  /** The pool this request's reads go to now. */
  target(): pg.Pool {
    return this.monitor.mayServe(readContext.getStore()) ? this.replica : this.primary;
  }

  async query(config: QueryConfig, values?: unknown): Promise<pg.QueryResult> {
    const text = typeof config === 'string' ? config : config.text;
    if (!READ_STATEMENT.test(text)) {
      throw new Error(`The read database handle only reads; refused: ${text.slice(0, 40)}`);
    }
    const pool = this.target();
    try {
      return await pool.query(config as pg.QueryConfig, values as unknown[]);
    } catch (error) {
      if (pool !== this.replica || !(isDatabaseUnavailable(error) || isRecoveryConflict(error))) throw error;
      if (isDatabaseUnavailable(error)) this.monitor.markUnreachable();
      return await this.primary.query(config as pg.QueryConfig, values as unknown[]);
    }
  }

  /**
   * A connection for a transaction or a cursor, by the same choice; one the replica cannot give comes from the
   * primary (its statements are the caller's, so none is retried once sent).
   */
  async connect(): Promise<pg.PoolClient> {
    const pool = this.target();
    try {
      return await pool.connect();
    } catch (error) {
      if (pool !== this.replica || !isDatabaseUnavailable(error)) throw error;
      this.monitor.markUnreachable();
      return await this.primary.connect();
    }
  }
}
