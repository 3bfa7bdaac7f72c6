// Random secrets and their hashes. Tokens and codes come from the cryptographic random source and are
// compared in constant time (architecture §5); only hashes are stored.
import crypto from 'node:crypto';
import { OTP_LENGTH } from '@sc/shared/constants';

/** An opaque token of `bytes` random bytes (default 32 = 256 bits; never below 16 = 128 bits), base64url. */
export function generateToken(bytes = 32): string {
  return crypto.randomBytes(Math.max(16, bytes)).toString('base64url');
}

/** A numeric code of `length` digits, uniformly drawn ('004211' included). */
export function generateCode(length = OTP_LENGTH): string {
  return crypto
    .randomInt(0, 10 ** length)
    .toString()
    .padStart(length, '0');
}

/** SHA-256 hex: how session tokens, id_tokens and link tokens are stored and looked up. */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * HMAC-SHA-256 hex keyed with the server secret: how short codes are stored, so a leaked table
 * cannot be brute-forced back to the codes without the key.
 */
export function hmacSha256(secret: string, value: string): string {
  return crypto.createHmac('sha256', secret).update(value, 'utf8').digest('hex');
}

/** Constant-time string equality (lengths are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) return false;
  return crypto.timingSafeEqual(x, y);
}
