// The durable job queue (architecture §1 jobs): pg-boss in the application's own database. On PGlite it runs through
// the adapter of STACK.md ("Jobs on PGlite"); on PostgreSQL it gets a small pool of its own. pg-boss is started
// lazily by the first send/drain, so apps that never queue anything (most tests, scripts) pay nothing; `start()`
// also starts the polling workers (server only). Tests run queued jobs in-process with `drain()`.
import PgBoss from 'pg-boss';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { ServiceLogger } from '../logger.ts';

export type JobInfo = { id: string; name: string; retryCount: number };
export type JobHandler = (payload: unknown, job: JobInfo) => Promise<void>;

export type SendOptions = {
  /** Run no earlier than this many seconds from now. */
  startAfterSeconds?: number;
  /** Retries of a handler that throws (crashes, database errors); 0 = none. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A handler running longer than this is considered dead and retried. */
  expireInSeconds?: number;
  /**
   * With `singletonSeconds`: one job of this name and key per time slot of that many seconds, however many
   * instances send it (a start-up job every instance queues).
   */
  singletonKey?: string;
  singletonSeconds?: number;
};

export type DrainOptions = {
  /** Also run jobs scheduled for later (retries with backoff) right away. Default true. */
  ignoreStartAfter?: boolean;
  /** Stop after this many jobs (a guard against a job that keeps re-queueing itself). Default 1000. */
  maxJobs?: number;
};

export type Queue = {
  send: (name: string, payload: object, options?: SendOptions) => Promise<string | null>;
  sendMany: (name: string, payloads: object[], options?: SendOptions) => Promise<void>;
  /** Registers the handler of a job name; with the workers running it starts polling at once. */
  work: (name: string, handler: JobHandler) => void;
  /**
   * Sends a job on a cron schedule (UTC) once the workers start (never in a process that only drains, such as
   * tests). Kept in pg-boss: one instance sends each occurrence, however many servers run.
   */
  schedule: (name: string, cron: string, payload: object, options?: SendOptions) => void;
  /** Installs pg-boss (if needed), starts polling workers for every registered job and its schedules. */
  start: () => Promise<void>;
  /**
   * Shutdown, first step: the workers fetch no new job; running ones go on. `stop` then waits for them until
   * `deadline` (epoch ms) instead of its default few seconds. Jobs can still be sent until `stop`.
   */
  stopWorkers: (deadline: number) => Promise<void>;
  stop: () => Promise<void>;
  /** Runs queued jobs in this process until none is left (tests, scripts); returns how many ran. */
  drain: (options?: DrainOptions) => Promise<number>;
  /**
   * Jobs waiting to run (queued or waiting for a retry) per registered job name, or null while pg-boss is not started
   * here: a metrics scrape must not start it.
   */
  depths: () => Promise<Map<string, number> | null>;
};

export type QueueOptions = {
  /** Seconds between polls of an idle worker (pg-boss minimum 0.5). */
  pollingIntervalSeconds?: number;
  /** Called for each failed handler run (the metrics' failure counter). */
  onJobFailure?: (name: string) => void;
};

const DEFAULT_POLLING_SECONDS = 2;
const PG_BOSS_SCHEMA = 'pgboss';

type BossDb = {
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] } | Array<{ rows: unknown[] }>>;
};

/** pg-boss on PGlite: statements without parameters (its multi-statement migrations) go through `exec`. */
function pgliteAdapter(database: Database): BossDb {
  const pg = database.pglite;
  if (!pg) throw new Error('PGlite database expected.');
  return {
    async executeSql(text, values) {
      if (!values?.length) {
        const results = await pg.exec(text);
        return results.length > 1 ? results.map((r) => ({ rows: r.rows })) : { rows: results[0]?.rows ?? [] };
      }
      return { rows: (await pg.query(text, values)).rows };
    },
  };
}

function bossOptions(config: Config, database: Database, options: QueueOptions): PgBoss.ConstructorOptions {
  const common: PgBoss.ConstructorOptions = {
    schema: PG_BOSS_SCHEMA,
    migrate: true,
    // Cron schedules and maintenance (expiry, archiving) only where workers run for real.
    schedule: config.NODE_ENV !== 'test',
    supervise: config.NODE_ENV !== 'test',
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? DEFAULT_POLLING_SECONDS,
  };
  if (database.kind === 'pglite') {
    // pg-boss types its adapter loosely (`any[]` rows); ours returns what its Db expects.
    return { ...common, db: pgliteAdapter(database) as PgBoss.Db };
  }
  // Its own small pool (STACK.md): a worker's long poll never starves the request pool.
  const connectionString = config.DATABASE_URL ?? database.pool?.options.connectionString;
  if (!connectionString) throw new Error('The job queue needs a PostgreSQL connection string.');
  return { ...common, connectionString, max: 4, application_name: 'screening-console-jobs' };
}

function toBossSendOptions(options: SendOptions = {}): PgBoss.SendOptions {
  const out: PgBoss.SendOptions = {};
  if (options.startAfterSeconds !== undefined)
    out.startAfter = Math.max(0, Math.round(options.startAfterSeconds));
  if (options.retryLimit !== undefined) out.retryLimit = options.retryLimit;
  if (options.retryDelaySeconds !== undefined) out.retryDelay = options.retryDelaySeconds;
  if (options.retryBackoff !== undefined) out.retryBackoff = options.retryBackoff;
  if (options.expireInSeconds !== undefined) out.expireInSeconds = options.expireInSeconds;
  if (options.singletonKey !== undefined) out.singletonKey = options.singletonKey;
  if (options.singletonSeconds !== undefined) out.singletonSeconds = options.singletonSeconds;
  return out;
}

const QUEUE_CREATE_ATTEMPTS = 4;

/** PostgreSQL's deadlock_detected: the victim's transaction was rolled back and may simply run again. */
function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '40P01';
}

function errorData(err: unknown): object {
  return err instanceof Error ? { message: err.message.slice(0, 1000) } : { message: String(err) };
}

export function createQueue(
  config: Config,
  database: Database,
  log: ServiceLogger,
  options: QueueOptions = {},
): Queue {
  const handlers = new Map<string, JobHandler>();
  const workerIds = new Map<string, string>();
  const schedules = new Map<string, { cron: string; payload: object; options?: SendOptions }>();
  let boss: PgBoss | null = null;
  let booting: Promise<PgBoss> | null = null;
  let workersStarted = false;
  let stopped = false;
  let stopDeadline: number | null = null;
  const createdQueues = new Set<string>();

  async function boot(): Promise<PgBoss> {
    if (stopped) throw new Error('The job queue is stopped.');
    if (boss) return boss;
    booting ??= (async () => {
      const instance = new PgBoss(bossOptions(config, database, options));
      // pg-boss reports worker and maintenance errors as events; an unhandled 'error' event would crash.
      instance.on('error', (err) => log.error({ error: err.message }, 'job queue error'));
      await instance.start();
      boss = instance;
      return instance;
    })();
    try {
      return await booting;
    } catch (err) {
      booting = null;
      throw err;
    }
  }

  // pg-boss creates a queue with DDL (a partition of its job table). Two creations at once, or one racing
  // pg-boss's own maintenance, can deadlock on PostgreSQL: create one at a time, and retry a deadlock victim.
  let queueCreation: Promise<void> = Promise.resolve();
  async function ensureQueue(instance: PgBoss, name: string): Promise<void> {
    if (createdQueues.has(name)) return;
    const run = queueCreation.then(async () => {
      if (createdQueues.has(name)) return;
      for (let attempt = 1; ; attempt++) {
        try {
          await instance.createQueue(name); // does nothing when it exists
          break;
        } catch (err) {
          if (!isDeadlock(err) || attempt >= QUEUE_CREATE_ATTEMPTS) throw err;
          await new Promise((r) => setTimeout(r, 50 * attempt));
        }
      }
      createdQueues.add(name);
    });
    queueCreation = run.catch(() => undefined);
    await run;
  }

  async function runJob(name: string, job: PgBoss.JobWithMetadata | PgBoss.Job): Promise<void> {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`No handler for job ${name}.`);
    const retryCount = 'retryCount' in job ? job.retryCount : 0;
    await handler(job.data, { id: job.id, name, retryCount });
  }

  async function startWorker(instance: PgBoss, name: string): Promise<void> {
    if (workerIds.has(name)) return;
    await ensureQueue(instance, name);
    const id = await instance.work<object>(name, { includeMetadata: true, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) {
        try {
          await runJob(name, job);
        } catch (err) {
          options.onJobFailure?.(name);
          log.warn({ job: name, jobId: job.id, error: errorData(err) }, 'job failed');
          throw err; // pg-boss records the failure and retries within the job's retryLimit
        }
      }
    });
    workerIds.set(name, id);
  }

  async function applySchedule(instance: PgBoss, name: string): Promise<void> {
    const entry = schedules.get(name);
    if (!entry) return;
    await ensureQueue(instance, name); // a schedule needs its queue
    // Upserts by name: every start rewrites the cron and payload, so a changed schedule takes effect.
    await instance.schedule(name, entry.cron, entry.payload, toBossSendOptions(entry.options));
  }

  return {
    async send(name, payload, sendOptions) {
      const instance = await boot();
      await ensureQueue(instance, name);
      const id = await instance.send(name, payload, toBossSendOptions(sendOptions));
      // A local worker picks the job up now instead of at its next poll.
      const workerId = workerIds.get(name);
      if (workerId && !sendOptions?.startAfterSeconds) instance.notifyWorker(workerId);
      return id;
    },

    async sendMany(name, payloads, sendOptions) {
      if (!payloads.length) return;
      const instance = await boot();
      await ensureQueue(instance, name);
      const o = toBossSendOptions(sendOptions);
      const startAfter =
        o.startAfter !== undefined
          ? new Date(Date.now() + Number(o.startAfter) * 1000).toISOString()
          : undefined;
      await instance.insert(
        payloads.map((data) => ({
          name,
          data,
          ...(startAfter ? { startAfter } : {}),
          ...(o.retryLimit !== undefined ? { retryLimit: o.retryLimit } : {}),
          ...(o.retryDelay !== undefined ? { retryDelay: o.retryDelay } : {}),
          ...(o.retryBackoff !== undefined ? { retryBackoff: o.retryBackoff } : {}),
          ...(o.expireInSeconds !== undefined ? { expireInSeconds: o.expireInSeconds } : {}),
        })),
      );
      const workerId = workerIds.get(name);
      if (workerId && !startAfter) instance.notifyWorker(workerId);
    },

    work(name, handler) {
      handlers.set(name, handler);
      if (workersStarted && boss) {
        startWorker(boss, name).catch((err: unknown) =>
          log.error({ job: name, error: errorData(err) }, 'job worker did not start'),
        );
      }
    },

    schedule(name, cron, payload, sendOptions) {
      schedules.set(name, { cron, payload, ...(sendOptions ? { options: sendOptions } : {}) });
      if (workersStarted && boss) {
        applySchedule(boss, name).catch((err: unknown) =>
          log.error({ job: name, error: errorData(err) }, 'job schedule not saved'),
        );
      }
    },

    async start() {
      const instance = await boot();
      workersStarted = true;
      for (const name of handlers.keys()) await startWorker(instance, name);
      for (const name of schedules.keys()) await applySchedule(instance, name);
    },

    async stopWorkers(deadline) {
      stopDeadline = deadline;
      workersStarted = false;
      if (!boss) return;
      for (const name of workerIds.keys()) await boss.offWork(name);
      workerIds.clear();
    },

    async stop() {
      stopped = true;
      const instance = boss ?? (booting ? await booting.catch(() => null) : null);
      if (!instance) return;
      // Running handlers get until the shutdown deadline (else a few seconds) to finish; unfinished jobs are failed
      // and retried later, by another instance or this one's successor.
      const timeout = stopDeadline === null ? 5_000 : Math.max(1_000, stopDeadline - Date.now());
      await instance.stop({ graceful: true, wait: true, timeout, close: true });
      boss = null;
    },

    async drain(drainOptions = {}) {
      const { ignoreStartAfter = true, maxJobs = 1000 } = drainOptions;
      const instance = await boot();
      let ran = 0;
      for (;;) {
        let fetched = 0;
        for (const name of handlers.keys()) {
          await ensureQueue(instance, name);
          const jobs = await instance.fetch<object>(name, {
            batchSize: 1,
            ignoreStartAfter,
            includeMetadata: true,
          });
          for (const job of jobs) {
            fetched++;
            ran++;
            try {
              await runJob(name, job);
              await instance.complete(name, job.id);
            } catch (err) {
              options.onJobFailure?.(name);
              await instance.fail(name, job.id, errorData(err));
            }
          }
          if (ran >= maxJobs) return ran;
        }
        if (fetched === 0) return ran;
      }
    },

    async depths() {
      if (!boss) return null;
      const instance = boss;
      const depths = new Map<string, number>();
      // getQueueSize counts jobs before 'active': created and retry.
      for (const name of handlers.keys()) depths.set(name, await instance.getQueueSize(name));
      return depths;
    },
  };
}
