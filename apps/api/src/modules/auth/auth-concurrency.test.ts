// Sign-in limits under concurrent requests: each limit is checked and its row written under a per-number (or
// per-account) lock. On PostgreSQL the pool runs these requests in parallel, so the tests prove the lock.
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { auditLog, oneTimeCodes, outboxMessages } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { createUser, uniqueMobile } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload });

/** Fires `n` copies of the same request at once. */
const fireTogether = (n: number, url: string, payload: object) =>
  Promise.all(Array.from({ length: n }, () => post(url, payload)));

const outboxTo = (to: string) => t.database.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));

describe('concurrent sign-in requests for one number or account', () => {
  it('sends one code and refuses the others with the resend message when 5 requests for a number arrive together', async () => {
    const mobile = uniqueMobile();
    const user = await createUser(t, { mobile });
    const responses = await fireTogether(5, 'auth/otp/', { mobile, mobile_country_code: 'IN' });

    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 429, 429, 429, 429]);
    for (const refused of responses.filter((r) => r.statusCode === 429)) {
      // The others waited for the first one's code: 60 seconds left, give or take the time they waited.
      const detail = refused.json<{ detail: string }>().detail;
      expect([AUTH_MESSAGES.otpResendTooEarly(60), AUTH_MESSAGES.otpResendTooEarly(59)]).toContain(detail);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await outboxTo(user.mobile!)).toHaveLength(1);
    const codes = await t.database.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.target, user.mobile!));
    expect(codes).toHaveLength(1);
    expect(codes[0]?.usedAt).toBeNull();
  });

  it('e-mails exactly 5 reset links an hour when 6 requests for an account arrive together', async () => {
    const user = await createUser(t);
    const responses = await fireTogether(6, 'auth/password-reset/', { email: user.email });

    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = responses.find((r) => r.statusCode === 429);
    expect(refused?.json()).toEqual({ detail: AUTH_MESSAGES.tooManyAttempts });
    expect(await outboxTo(user.email!)).toHaveLength(5);
    const links = await t.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'password_reset')));
    expect(links).toHaveLength(5);
    // Each newer link replaced the one before it: one usable link is left.
    expect(links.filter((l) => l.usedAt === null)).toHaveLength(1);
  });

  it('gives 10 concurrent wrong guesses of a code 5 tries in all, not 5 each', async () => {
    const mobile = uniqueMobile();
    const user = await createUser(t, { mobile });
    expect((await post('auth/otp/', { mobile, mobile_country_code: 'IN' })).statusCode).toBe(200);
    const [sms] = await outboxTo(user.mobile!);
    const wrong = sms?.code === '000000' ? '111111' : '000000';

    const responses = await fireTogether(10, 'auth/otp/verify/', {
      mobile,
      mobile_country_code: 'IN',
      code: wrong,
    });

    const messages = responses.map((r) => r.json<{ code: string[] }>().code[0]);
    expect(messages.filter((m) => m === AUTH_MESSAGES.otpInvalid)).toHaveLength(4);
    expect(messages.filter((m) => m === AUTH_MESSAGES.otpTooManyTries)).toHaveLength(6);
    const [code] = await t.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.target, user.mobile!), isNull(oneTimeCodes.usedAt)));
    expect(code?.attempts).toBe(5);
    const right = await post('auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: sms?.code });
    expect(right.json()).toEqual({ code: [AUTH_MESSAGES.otpTooManyTries] });
  });

  it('counts at most 10 wrong passwords when 12 arrive together, and refuses the rest as too many attempts', async () => {
    const user = await createUser(t);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post('auth/password/', { email: user.email, password: `Wrong-${i}-pass` }),
      ),
    );

    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const failures = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'sign_in.password'),
          eq(auditLog.actorId, user.id),
          eq(auditLog.outcome, 'failure'),
        ),
      );
    expect(failures).toHaveLength(10);
    expect(failures[0]?.details).toMatchObject({ reason: 'wrong_password', email: user.email });
  });
});
