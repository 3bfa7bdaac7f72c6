// Idempotent uploads (issue 8): every device upload carries an Idempotency-Key. The key is claimed in the same
// transaction that stores the upload and keeps the answer, so
// - a retry with the same key and content gets the stored status and body (and `Idempotent-Replayed: true`),
// - the same key with other content (or for another endpoint) is a 422 and changes nothing,
// - parallel copies of one upload wait on the key's unique index for the first one; only it stores anything and
//   queues anything (its after-commit work), the others then replay its answer.
// A request that fails (400/403/…) rolls its claim back: the key stays free for a corrected retry.
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
