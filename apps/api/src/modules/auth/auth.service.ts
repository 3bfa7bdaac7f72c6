// Sign-in use cases (part 1 §2.2, §8; architecture §5): e-mail + password, mobile + one-time code, password reset.
// Each successful first step ends in a single-use id_token (5 minutes) that POST user/login/ exchanges for
// a session. Codes and tokens are random, stored hashed, and never logged, audited or returned twice.
import ipaddr from 'ipaddr.js';
import { AUTH_MESSAGES, type TOtpRequest, type TOtpVerify, type TPasswordLogin } from '@sc/shared/auth';
import {
  splitStoredMobile,
  storedMobileCandidates,
  type TDetail,
  type TOtpSent,
  type TOtpVerifyResponse,
  type TPasswordLoginResponse,
} from '@sc/shared/auth-extra';
import {
  ID_TOKEN_TTL_SECONDS,
  OTP_MAX_PER_HOUR,
  OTP_MAX_TRIES,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
  PASSWORD_RESET_TTL_SECONDS,
} from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import type { AppContext } from '../../app.ts';
import type { RequestMeta } from '../../http/actor.ts';
import { AppError, fieldError, nonFieldError } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../services/passwords.ts';
import { generateCode, generateToken, hmacSha256, safeEqual, sha256 } from '../../services/tokens.ts';
import {
  addCodeAttempt,
  consumeTokenByHash,
  countCodesForUserSince,
  countFailuresSince,
  findLatestCode,
  findUserByEmail,
  findUserById,
  findUserByMobile,
  insertCode,
  invalidateCodes,
  listCodesSince,
  lockSignInKey,
  setPasswordHash,
  useCode,
  type CodePurpose,
  type DbOrTx,
  type SignInUser,
} from './auth.queries.ts';
import { revokeUserSessions } from './sessions.queries.ts';

export type AuthContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;

export const AUDIT_ACTIONS = {
  passwordSignIn: 'sign_in.password',
  otpRequested: 'sign_in.otp_requested',
  otpSignIn: 'sign_in.otp',
  sessionCreated: 'sign_in.session',
  signOut: 'sign_out',
  resetRequested: 'password_reset.requested',
  resetCompleted: 'password_reset.completed',
  accountDeleted: 'account.deleted',
} as const;

/**
 * Wrong passwords are counted per account and client address: 10 in 15 minutes lock that account for that address
 * only, so a stranger's guesses never lock its owner out elsewhere (issue 22.13). One address is also stopped after
 * 50 failed sign-ins in 15 minutes whatever accounts it tries (the per-minute limits of @fastify/rate-limit may be
 * off, and a crash of the database server empties their unlogged table).
 */
export const PASSWORD_FAILURE_LIMIT = 10;
export const ADDRESS_FAILURE_LIMIT = 50;
export const PASSWORD_FAILURE_WINDOW_MS = 15 * 60_000;
/** Per-account limit on reset e-mails. */
export const RESET_EMAILS_PER_HOUR = 5;

const HOUR_MS = 3_600_000;
/** Codes sent to a mobile for sign-in: the code view and the second factor share limits and verification. */
const MOBILE_CODE_PURPOSES: CodePurpose[] = ['otp', 'second_factor'];
const SECOND_FACTOR_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'];
/**
 * Whether a sign-in of this user needs two factors (REQUIRE_SECOND_FACTOR): password then a code to the mobile, or a
 * code then the password, whichever it begins with.
 */
const needsSecondFactor = (ctx: AuthContext, user: SignInUser) =>
  ctx.config.requireSecondFactor && SECOND_FACTOR_ROLES.includes(user.userType);
export const CODE_SENT = 'Code sent.';

/**
 * The address a client is counted by: an IPv4 address as is, an IPv6 one by its /64 (one subscriber's whole prefix,
 * which a single machine can walk through).
 */
export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = address.toByteArray().slice(0, 8);
  return `${ipaddr.fromByteArray([...prefix, 0, 0, 0, 0, 0, 0, 0, 0]).toString()}/64`;
}

const tooManyAttempts = (retryAfterSeconds: number, message: string = AUTH_MESSAGES.tooManyAttempts) =>
  new AppError('rate_limited', message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

// ---- e-mail and password ---------------------------------------------------------------------------

export async function signInWithPassword(
  ctx: AuthContext,
  input: TPasswordLogin,
  meta: RequestMeta,
): Promise<TPasswordLoginResponse> {
  const { db } = ctx.database;
  const client = clientAddressKey(meta.ip);
  const audit = (
    outcome: 'success' | 'failure',
    userId: number | null,
    details: Record<string, unknown>,
    on?: DbOrTx,
  ) =>
    ctx.services.audit.record(
      {
        action: AUDIT_ACTIONS.passwordSignIn,
        actorId: userId,
        targetType: 'user',
        targetId: userId,
        outcome,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { email: input.email, client, ...details },
      },
      on,
    );
  /** Wrong tries from this address in the window, on any account or on `userId`'s. */
  const failures = (on: DbOrTx, userId?: number) =>
    countFailuresSince(
      on,
      AUDIT_ACTIONS.passwordSignIn,
      { client, userId },
      new Date(ctx.now().getTime() - PASSWORD_FAILURE_WINDOW_MS),
    );
  const isAddressLocked = async (on: DbOrTx) => (await failures(on)) >= ADDRESS_FAILURE_LIMIT;
  const isPairLocked = async (on: DbOrTx, userId: number) => (await failures(on, userId)) >= PASSWORD_FAILURE_LIMIT;
  const locked = () => tooManyAttempts(PASSWORD_FAILURE_WINDOW_MS / 1000);

  if (await isAddressLocked(db)) throw locked();
  const user = await findUserByEmail(db, input.email);
  if (!user) {
    await audit('failure', null, { reason: 'unknown_user' });
    throw nonFieldError(AUTH_MESSAGES.userNotFound);
  }
  if (!user.isValid) {
    await audit('failure', user.id, { reason: 'user_disabled' });
    throw nonFieldError(AUTH_MESSAGES.userDisabled);
  }
  // A locked pair is refused before any hash is computed; the checks that count are the locked ones below.
  if (await isPairLocked(db, user.id)) throw locked();
  // The (slow) hash is checked outside the transaction so that no connection waits on it.
  const isRightPassword = await verifyPassword(user.passwordHash, input.password);
  // Count and record the failure under the address's and the pair's locks: concurrent wrong guesses cannot all pass
  // the limits, and a right password that arrives once a limit is reached is refused too.
  const isRefused = await db.transaction(async (tx) => {
    await lockSignInKey(tx, `password-address:${client}`);
    await lockSignInKey(tx, `password:${user.id}:${client}`);
    if ((await isAddressLocked(tx)) || (await isPairLocked(tx, user.id))) return true;
    if (!isRightPassword) {
      await audit('failure', user.id, { reason: user.passwordHash ? 'wrong_password' : 'no_password' }, tx);
    }
    return false;
  });
  if (isRefused) throw locked();
  if (!isRightPassword) throw nonFieldError(AUTH_MESSAGES.wrongPassword);

  // Second step of a sign-in that began with the mobile code: the code_token (used once) is the first factor.
  const isCodeVerified =
    input.code_token !== undefined &&
    (await consumeTokenByHash(db, ['code_verified'], sha256(input.code_token), ctx.now()))?.userId === user.id;
  if (needsSecondFactor(ctx, user) && !isCodeVerified && user.mobile) {
    await sendMobileCode(ctx, user, user.mobile, 'second_factor');
    await audit('success', user.id, { second_factor: 'sent' });
    const { national, country } = splitStoredMobile(user.mobile, user.mobileCountryCode);
    return {
      second_factor_required: true,
      mobile: national,
      mobile_country_code: country,
      resend_after: OTP_RESEND_SECONDS,
    };
  }
  const idToken = await issueIdToken(ctx, user.id);
  await audit('success', user.id, isCodeVerified ? { second_factor: 'code_first' } : {});
  return { id_token: idToken };
}

// ---- mobile and one-time code ----------------------------------------------------------------------

/**
 * The stored form of a number and its active account, if any. The code steps answer a number without an active
 * account exactly as one with (a code is made and counted, it is just never sent), so they do not tell a stranger
 * which numbers have accounts (issue 22.14).
 */
async function findMobileTarget(
  ctx: AuthContext,
  mobile: string,
  country: string,
): Promise<{ target: string; user: SignInUser | null }> {
  const candidates = storedMobileCandidates(mobile, country);
  const user = await findUserByMobile(ctx.database.db, candidates);
  if (user?.mobile && user.isValid) return { target: user.mobile, user };
  const [target] = candidates;
  if (!target) throw fieldError('mobile', MESSAGES.invalidPhone);
  return { target, user: null };
}

export async function requestOtp(ctx: AuthContext, input: TOtpRequest, meta: RequestMeta): Promise<TOtpSent> {
  const { target, user } = await findMobileTarget(ctx, input.mobile, input.mobile_country_code);
  await sendMobileCode(ctx, user, target, 'otp');
  await ctx.services.audit.record({
    action: AUDIT_ACTIONS.otpRequested,
    actorId: user?.id ?? null,
    targetType: 'user',
    targetId: user?.id ?? null,
    outcome: user ? 'success' : 'failure',
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: user ? { mobile: target } : { mobile: target, reason: 'no_active_user' },
  });
  return { detail: CODE_SENT, resend_after: OTP_RESEND_SECONDS };
}

/** The lock every code check and write of one number takes (sign-in and second-factor codes alike). */
const mobileCodeLock = (target: string) => `otp:${target}`;

/**
 * Resend after 60 s, at most 5 an hour per number; a new code replaces the previous ones. The limits are
 * checked and the code stored in one transaction under the number's lock, so of concurrent requests only
 * one can pass; the SMS leaves after the commit, and only to a number with an active account (`user`).
 */
async function sendMobileCode(
  ctx: AuthContext,
  user: SignInUser | null,
  target: string,
  purpose: CodePurpose,
): Promise<void> {
  const code = generateCode();
  // Before the transaction: the signing secret may have to be read from the database.
  const codeHash = await hashCode(ctx, target, code);
  await ctx.database.db.transaction(async (tx) => {
    await lockSignInKey(tx, mobileCodeLock(target));
    // Read once the lock is held, so a request that waited is measured against the code it waited for.
    const at = ctx.now();
    const latest = await findLatestCode(tx, MOBILE_CODE_PURPOSES, target);
    if (latest) {
      const waitMs = latest.created.getTime() + OTP_RESEND_SECONDS * 1000 - at.getTime();
      if (waitMs > 0)
        throw tooManyAttempts(waitMs / 1000, AUTH_MESSAGES.otpResendTooEarly(Math.ceil(waitMs / 1000)));
    }
    const lastHour = await listCodesSince(tx, MOBILE_CODE_PURPOSES, target, new Date(at.getTime() - HOUR_MS));
    const oldest = lastHour[0];
    if (oldest && lastHour.length >= OTP_MAX_PER_HOUR) {
      throw tooManyAttempts(
        (oldest.created.getTime() + HOUR_MS - at.getTime()) / 1000,
        AUTH_MESSAGES.otpHourlyLimit,
      );
    }
    await invalidateCodes(tx, MOBILE_CODE_PURPOSES, { target }, at);
    await insertCode(tx, {
      purpose,
      target,
      userId: user?.id ?? null,
      codeHash,
      created: at,
      expiresAt: new Date(at.getTime() + OTP_TTL_SECONDS * 1000),
    });
  });
  if (!user) return;
  await ctx.services.sms.send({
    to: target,
    body: `${code} is your Screening Console sign-in code. It expires in ${OTP_TTL_SECONDS / 60} minutes. Do not share it.`,
    code,
  });
}

/** Codes are short: keyed with the server secret and bound to their number. */
async function hashCode(ctx: AuthContext, target: string, code: string): Promise<string> {
  return hmacSha256(await ctx.services.secrets.getSigningSecret(), `${target}:${code}`);
}

export async function verifyOtp(
  ctx: AuthContext,
  input: TOtpVerify,
  meta: RequestMeta,
): Promise<TOtpVerifyResponse> {
  const { target, user } = await findMobileTarget(ctx, input.mobile, input.mobile_country_code);
  const audit = (outcome: 'success' | 'failure', details: Record<string, unknown>) =>
    ctx.services.audit.record({
      action: AUDIT_ACTIONS.otpSignIn,
      actorId: user?.id ?? null,
      targetType: 'user',
      targetId: user?.id ?? null,
      outcome,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { mobile: target, ...details },
    });
  const fail = async (reason: string, message: string) => {
    await audit('failure', { reason });
    return fieldError('code', message);
  };

  const codeHash = await hashCode(ctx, target, input.code);
  // Tries are checked and counted under the number's lock: concurrent guesses get 5 tries in all, not 5 each.
  // A refusal returns (not throws) so that the counted try commits.
  const outcome = await ctx.database.db.transaction(
    async (tx): Promise<{ reason: string; message: string } | { purpose: CodePurpose; owner: SignInUser }> => {
      await lockSignInKey(tx, mobileCodeLock(target));
      const at = ctx.now();
      const latest = await findLatestCode(tx, MOBILE_CODE_PURPOSES, target);
      if (!latest || latest.usedAt) return { reason: 'no_active_code', message: AUTH_MESSAGES.otpInvalid };
      if (latest.attempts >= OTP_MAX_TRIES)
        return { reason: 'too_many_tries', message: AUTH_MESSAGES.otpTooManyTries };
      if (latest.expiresAt.getTime() <= at.getTime())
        return { reason: 'expired', message: AUTH_MESSAGES.otpExpired };
      // A code made for a number without an active account was never sent: even its right value is a wrong try.
      const isOwnersCode = user !== null && latest.userId === user.id;
      if (!isOwnersCode || !safeEqual(codeHash, latest.codeHash)) {
        const attempts = await addCodeAttempt(tx, latest.id);
        return {
          reason: 'wrong_code',
          message: attempts >= OTP_MAX_TRIES ? AUTH_MESSAGES.otpTooManyTries : AUTH_MESSAGES.otpInvalid,
        };
      }
      if (!(await useCode(tx, latest.id, at, OTP_MAX_TRIES)))
        return { reason: 'already_used', message: AUTH_MESSAGES.otpInvalid };
      return { purpose: latest.purpose, owner: user };
    },
  );
  if ('reason' in outcome) throw await fail(outcome.reason, outcome.message);
  const { purpose, owner } = outcome;
  if (purpose === 'otp' && needsSecondFactor(ctx, owner)) {
    // The code is the first factor only: the password is due, with a single-use proof of the code.
    const codeToken = await issueSingleUseToken(ctx, 'code_verified', owner.id);
    await audit('success', { purpose: 'sign_in', second_factor: 'password_required' });
    return { password_required: true, email: owner.email, code_token: codeToken };
  }
  const idToken = await issueIdToken(ctx, owner.id);
  await audit('success', { purpose: purpose === 'second_factor' ? 'second_factor' : 'sign_in' });
  return { id_token: idToken };
}

// ---- id_token ----------------------------------------------------------------------------------------

/** A random token stored hashed for `ID_TOKEN_TTL_SECONDS`: the id_token, or the proof of a verified code. */
async function issueSingleUseToken(
  ctx: AuthContext,
  purpose: 'id_token' | 'code_verified',
  userId: number,
): Promise<string> {
  const at = ctx.now();
  const token = generateToken(32);
  await insertCode(ctx.database.db, {
    purpose,
    target: `user:${userId}`,
    userId,
    codeHash: sha256(token),
    created: at,
    expiresAt: new Date(at.getTime() + ID_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

export const issueIdToken = (ctx: AuthContext, userId: number) => issueSingleUseToken(ctx, 'id_token', userId);

/** Uses an id_token once; answers its user id, or null when unknown, expired or already used. */
export async function consumeIdToken(ctx: AuthContext, token: string): Promise<number | null> {
  const row = await consumeTokenByHash(ctx.database.db, ['id_token'], sha256(token), ctx.now());
  return row?.userId ?? null;
}

// ---- password reset ----------------------------------------------------------------------------------

export async function requestPasswordReset(
  ctx: AuthContext,
  input: { email: string },
  meta: RequestMeta,
): Promise<TDetail> {
  const { db } = ctx.database;
  // The spec's forgot-password view names unknown and disabled accounts (part 1 §8), so this call does too.
  const user = await findUserByEmail(db, input.email);
  if (!user?.email) throw nonFieldError(AUTH_MESSAGES.userNotFound);
  if (!user.isValid) throw nonFieldError(AUTH_MESSAGES.userDisabled);
  const email = user.email;
  const token = generateToken(32);
  // The hourly cap is checked and the link stored under the account's lock (concurrent requests cannot all
  // pass the count); the e-mail leaves after the commit.
  await db.transaction(async (tx) => {
    await lockSignInKey(tx, `password_reset:${user.id}`);
    const at = ctx.now();
    if (
      (await countCodesForUserSince(tx, 'password_reset', user.id, new Date(at.getTime() - HOUR_MS))) >=
      RESET_EMAILS_PER_HOUR
    ) {
      throw tooManyAttempts(HOUR_MS / 1000);
    }
    await invalidateCodes(tx, ['password_reset'], { userId: user.id }, at);
    await insertCode(tx, {
      purpose: 'password_reset',
      target: email,
      userId: user.id,
      codeHash: sha256(token),
      created: at,
      expiresAt: new Date(at.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
    });
  });
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.services.mail.send({
    to: user.email,
    subject: 'Reset your Screening Console password',
    body: [
      `Hello${user.firstName ? ` ${user.firstName}` : ''},`,
      '',
      'Open this link to choose a new password. It works once and expires in one hour:',
      link,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays the same.',
    ].join('\n'),
    link,
  });
  await ctx.services.audit.record({
    action: AUDIT_ACTIONS.resetRequested,
    actorId: user.id,
    targetType: 'user',
    targetId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { email: user.email },
  });
  return { detail: AUTH_MESSAGES.resetLinkSent(input.email) };
}

/** Sets the password from a reset (or set-password) link: single use; every session of the user ends. */
export async function confirmPasswordReset(
  ctx: AuthContext,
  input: { token: string; password: string },
  meta: RequestMeta,
): Promise<TDetail> {
  const { db } = ctx.database;
  const at = ctx.now();
  const passwordHash = await hashPassword(input.password);
  const row = await consumeTokenByHash(db, ['password_reset', 'set_password'], sha256(input.token), at);
  const user = row?.userId ? await findUserById(db, row.userId) : null;
  if (!row || !user?.isValid) throw fieldError('token', AUTH_MESSAGES.resetLinkInvalid);
  await setPasswordHash(db, user.id, passwordHash);
  await revokeUserSessions(db, user.id, at);
  await invalidateCodes(db, ['password_reset', 'set_password'], { userId: user.id }, at);
  await ctx.services.audit.record({
    action: AUDIT_ACTIONS.resetCompleted,
    actorId: user.id,
    targetType: 'user',
    targetId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { link: row.purpose },
  });
  return { detail: AUTH_MESSAGES.passwordUpdated };
}
