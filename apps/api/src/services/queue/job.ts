// What a job is (STYLE "Jobs"): a name, a zod payload schema, default send options and an idempotent handler.
// Jobs are queued with `enqueue` after the transaction that made their rows has committed.
import type { z } from 'zod';
import type { AppContext } from '../../app.ts';
import type { JobInfo, Queue, SendOptions } from './queue.ts';

/** What a handler may use: the same pieces a request has, without a request. */
export type JobContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  payload: S;
  options?: SendOptions;
  /** Runs on its own every so often once the workers start (cron, UTC), with this payload. */
  schedule?: { cron: string; payload: z.input<S> };
  /** Must be safe to run twice with the same payload (pg-boss delivers at least once). */
  handle: (ctx: JobContext, payload: z.output<S>, job: JobInfo) => Promise<void>;
};

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}

/** Validates the payload against the job's schema, then queues it with the job's default options. */
export async function enqueue<S extends z.ZodType>(
  queue: Queue,
  job: JobDefinition<S>,
  payload: z.input<S>,
  options?: SendOptions,
): Promise<string | null> {
  const data = job.payload.parse(payload) as object;
  return queue.send(job.name, data, { ...job.options, ...options });
}

export async function enqueueMany<S extends z.ZodType>(
  queue: Queue,
  job: JobDefinition<S>,
  payloads: Array<z.input<S>>,
  options?: SendOptions,
): Promise<void> {
  const data = payloads.map((p) => job.payload.parse(p) as object);
  await queue.sendMany(job.name, data, { ...job.options, ...options });
}
