// Idempotent uploads (issue 8): every device upload carries an Idempotency-Key. The key is claimed in the same
// transaction that stores the upload and keeps the answer, so
// - a retry with the same key and content gets the stored status and body (and `Idempotent-Replayed: true`),
// - the same key with other content (or for another endpoint) is a 422 and changes nothing,
// - parallel copies of one upload wait for the first one; only it stores anything and queues anything (its
//   after-commit work), the others then answer its result. In one process they wait for it in memory (where its
//   answer stays a few seconds), without a transaction of their own; a copy sent to another instance waits on the
//   key's unique index.
// A request that fails (400/403/…) rolls its claim back: the key stays free for a corrected retry (a copy waiting for
// it then runs as the first).
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, UPLOAD_MESSAGES, ZIdempotencyKey } from '@sc/shared/uploads';
import type { AppContext } from '../../app.ts';
import type { Tx } from '../../db/client.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { sha256 } from '../../services/tokens.ts';
import { claimIdempotencyKey, findIdempotencyKey, storeIdempotentResponse } from './uploads.queries.ts';

export type IdempotencyContext = Pick<AppContext, 'database' | 'now'>;

/** What an upload's work answers; `afterCommit` runs only for the request that stored it (jobs to queue). */
export type UploadOutcome = {
  status: number;
  body: Record<string, unknown>;
  afterCommit?: () => Promise<void>;
};

export type IdempotentAnswer = { status: number; body: Record<string, unknown>; replayed: boolean };

/** The Idempotency-Key header, or a 400 on it (missing, repeated, malformed). */
export function readIdempotencyKey(request: FastifyRequest): string {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  // Sent twice: Node hands over an array (or joins unknown headers with ', ', which the pattern refuses).
  const parsed = ZIdempotencyKey.safeParse(Array.isArray(raw) ? raw.join(', ') : raw);
  if (!parsed.success) {
    throw badRequest({
      [IDEMPOTENCY_KEY_HEADER]: [parsed.error.issues[0]?.message ?? UPLOAD_MESSAGES.keyMalformed],
    });
  }
  return parsed.data;
}

/** JSON with keys sorted at every depth and dates as ISO strings: equal requests hash equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

type Upload = { requestHash: string; answer: Promise<IdempotentAnswer> };

/** How long a stored answer stays in memory for copies that arrive just after it. */
const ANSWER_KEPT_MS = 5_000;

/**
 * The uploads this process is running or has answered in the last ANSWER_KEPT_MS, by database, then user and key.
 * A copy that went to the database instead queued behind the first one's transaction and every transaction queued
 * before its own (PGlite runs one at a time, and lets a parallel copy in only after the first has committed), or held
 * a pool connection while it waited on the key's index (PostgreSQL): seconds under load, for an answer known the
 * moment the first one committed.
 */
const uploads = new WeakMap<IdempotencyContext['database'], Map<string, Upload>>();

/**
 * Runs `work` once per (user, key): in one transaction with the claim of the key, whose row then keeps the answer.
 * `request` is the validated body (what "the same content" means); `endpoint` names the call ('POST scan/').
 */
export async function runIdempotent(
  ctx: IdempotencyContext,
  request: { userId: number; key: string; endpoint: string; body: unknown },
  work: (tx: Tx) => Promise<UploadOutcome>,
): Promise<IdempotentAnswer> {
  const requestHash = sha256(`${request.endpoint}\n${canonicalJson(request.body)}`);
  const known = uploads.get(ctx.database) ?? new Map<string, Upload>();
  uploads.set(ctx.database, known);
  const id = `${request.userId}\n${request.key}`;
  for (let first = known.get(id); first; first = known.get(id)) {
    // The first one failed: its claim rolled back and the key is free; this copy (or another waiting one) runs.
    const answer = await first.answer.catch(() => null);
    if (!answer) continue;
    if (first.requestHash !== requestHash) throw new AppError('unprocessable', UPLOAD_MESSAGES.keyReused);
    return { ...answer, replayed: true };
  }
  const upload: Upload = {
    requestHash,
    // A failed upload is gone from the map before any copy waiting for it sees it fail.
    answer: claimAndRun(ctx, request, requestHash, work).then(
      (answer) => {
        setTimeout(() => known.get(id) === upload && known.delete(id), ANSWER_KEPT_MS).unref();
        return answer;
      },
      (error: unknown) => {
        known.delete(id);
        throw error;
      },
    ),
  };
  known.set(id, upload);
  return upload.answer;
}

async function claimAndRun(
  ctx: IdempotencyContext,
  request: { userId: number; key: string; endpoint: string },
  requestHash: string,
  work: (tx: Tx) => Promise<UploadOutcome>,
): Promise<IdempotentAnswer> {
  let afterCommit: (() => Promise<void>) | undefined;
  const answer = await ctx.database.db.transaction(async (tx): Promise<IdempotentAnswer> => {
    const claimed = await claimIdempotencyKey(tx, {
      userId: request.userId,
      key: request.key,
      endpoint: request.endpoint,
      requestHash,
      created: ctx.now(),
    });
    if (claimed === null) {
      // Taken by a committed request (a concurrent one has been waited for): its answer, or 422 for other content.
      const stored = await findIdempotencyKey(tx, request.userId, request.key);
      if (
        !stored ||
        stored.requestHash !== requestHash ||
        stored.statusCode === null ||
        stored.response === null
      ) {
        throw new AppError('unprocessable', UPLOAD_MESSAGES.keyReused);
      }
      return { status: stored.statusCode, body: stored.response, replayed: true };
    }
    const outcome = await work(tx);
    // Kept as JSON reads it back, so the first answer and every replay are the same bytes.
    const body = JSON.parse(JSON.stringify(outcome.body)) as Record<string, unknown>;
    await storeIdempotentResponse(tx, claimed, outcome.status, body);
    afterCommit = outcome.afterCommit;
    return { status: outcome.status, body, replayed: false };
  });
  if (afterCommit) await afterCommit();
  return answer;
}
