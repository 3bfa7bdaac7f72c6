// Webhook signatures (issue 27): HMAC-SHA256 of `${timestamp}.${body}` with the organization's secret, and the check a
// receiver makes. `verifyWebhookSignature` is what the documentation shows receivers and what the tests' receiver runs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_TIMESTAMP_HEADER,
  webhookSignedString,
} from '@sc/shared/webhooks';

/** A new secret: the prefix and 32 random bytes in base64url (256 bits). */
export const newWebhookSecret = (): string => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');

/** Lower-case hex HMAC-SHA256 of the signed string. Pure: the same inputs give the same signature. */
export function webhookSignature(secret: string, timestamp: number, body: string | Buffer): string {
  // The prefix `${timestamp}.`, then the body's bytes as they are (a Buffer is not decoded and re-encoded).
  return createHmac('sha256', secret).update(webhookSignedString(timestamp, '')).update(body).digest('hex');
}

/** The two headers of a signed delivery, for the attempt made at `at`. */
export function signatureHeaders(secret: string, at: Date, body: string | Buffer): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    [WEBHOOK_TIMESTAMP_HEADER.toLowerCase()]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: `${WEBHOOK_SIGNATURE_VERSION}=${webhookSignature(secret, timestamp, body)}`,
  };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' };

/**
 * A receiver's check of one request: `rawBody` exactly as received (before JSON parsing), the two headers, the secret
 * and the receiver's clock. Refuses a missing header, a timestamp further than the tolerance from `now`, and any
 * signature but the HMAC of this timestamp and body (compared in constant time).
 */
export function verifyWebhookSignature(opts: {
  secret: string;
  rawBody: string | Buffer;
  timestamp: string | undefined;
  signature: string | undefined;
  now?: Date;
  toleranceSeconds?: number;
}): SignatureCheck {
  const { timestamp, signature } = opts;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) return { ok: false, reason: 'missing' };
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (opts.toleranceSeconds ?? WEBHOOK_SIGNATURE_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale' };
  }
  const expected = Buffer.from(`${WEBHOOK_SIGNATURE_VERSION}=${webhookSignature(opts.secret, Number(timestamp), opts.rawBody)}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
