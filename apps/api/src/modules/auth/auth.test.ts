import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_RULE_MESSAGE } from '@sc/shared/auth';
import { MESSAGES } from '@sc/shared/validation';
import { auditLog, oneTimeCodes, outboxMessages, users } from '../../db/schema/index.ts';
import { hmacSha256 } from '../../services/tokens.ts';
import { setupTestApp, type TestContext } from '../../test/app.ts';
import { DEFAULT_PASSWORD, auth, createUser, signIn, uniqueMobile } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });

const post = (ctx: TestContext, url: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, headers });

async function latestOutbox(ctx: TestContext, to: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/dev/outbox/?to=${encodeURIComponent(to)}`,
  });
  expect(res.statusCode).toBe(200);
  const [first] =
    res.json<Array<{ code: string | null; link: string | null; body: string; channel: string }>>();
  if (!first) throw new Error(`no message to ${to}`);
  return first;
}

async function auditRows(ctx: TestContext, action: string) {
  return ctx.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id));
}

const MINUTE = 60_000;

describe('POST auth/password/', () => {
  it('answers an id_token that user/login/ exchanges for a working session', async () => {
    const user = await createUser(t, { userType: 'ORG_ADMIN' });
    const res = await post(t, 'auth/password/', {
      email: user.email!.toUpperCase(),
      password: DEFAULT_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    const { id_token } = res.json<{ id_token: string }>();
    expect(id_token.length).toBeGreaterThanOrEqual(22);

    const login = await post(t, 'user/login/', {
      id_token,
      source: 'DASHBOARD',
      user_type: 'ADMIN',
      is_login: true,
      mobile_country_code: 'IN',
    });
    expect(login.statusCode).toBe(200);
    const { token, id, is_trainer } = login.json<{ token: string; id: number; is_trainer: boolean }>();
    expect(id).toBe(user.id);
    expect(is_trainer).toBe(false);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ email: string }>().email).toBe(user.email);
  });

  it('refuses a malformed e-mail with the field message', async () => {
    const res = await post(t, 'auth/password/', { email: 'not-an-email', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: [AUTH_MESSAGES.invalidEmail] });
  });

  it('names an unknown e-mail', async () => {
    const res = await post(t, 'auth/password/', { email: 'nobody@example.com', password: 'whatever1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.userNotFound] });
  });

  it('refuses a disabled user even with the right password', async () => {
    const user = await createUser(t, { isValid: false });
    const res = await post(t, 'auth/password/', { email: user.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.userDisabled] });
  });

  it('refuses a wrong password and audits the failure without the password', async () => {
    const user = await createUser(t);
    const res = await post(t, 'auth/password/', { email: user.email, password: 'Wrong-guess-77' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.wrongPassword] });
    const [row] = (await auditRows(t, 'sign_in.password')).filter((r) => r.actorId === user.id);
    expect(row?.outcome).toBe('failure');
    expect(row?.details).toMatchObject({ reason: 'wrong_password' });
    expect(JSON.stringify(row)).not.toContain('Wrong-guess-77');
  });

  it('refuses an account that has no password set with the same message', async () => {
    const user = await createUser(t, { password: null });
    const res = await post(t, 'auth/password/', { email: user.email, password: 'Anything-1' });
    expect(res.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.wrongPassword] });
  });

  const fromAddress = (remoteAddress: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/password/', payload, remoteAddress });

  it('locks an account for 15 minutes at the address that made 10 wrong guesses, even against the right password', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++) {
      expect(
        (await post(t, 'auth/password/', { email: user.email, password: `Wrong-${i}-pass` })).statusCode,
      ).toBe(400);
    }
    const locked = await post(t, 'auth/password/', { email: user.email, password: DEFAULT_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ detail: AUTH_MESSAGES.tooManyAttempts });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    t.clock.advance(15 * MINUTE + 1000);
    expect(
      (await post(t, 'auth/password/', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it("does not let a stranger's wrong passwords lock the owner out at another address", async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    for (let i = 0; i < 12; i++) {
      await fromAddress('203.0.113.7', { email: admin.email, password: `Wrong-${i}-pass` });
    }
    expect((await fromAddress('203.0.113.7', { email: admin.email, password: DEFAULT_PASSWORD })).statusCode).toBe(
      429,
    );
    const owner = await fromAddress('198.51.100.20', { email: admin.email, password: DEFAULT_PASSWORD });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json()).toHaveProperty('id_token');
  });

  it('counts an IPv6 client by its /64, so walking the prefix does not buy more guesses', async () => {
    const user = await createUser(t);
    for (let i = 1; i <= 10; i++) {
      await fromAddress(`2001:db8:7:7::${i.toString(16)}`, { email: user.email, password: `Wrong-${i}-pass` });
    }
    expect(
      (await fromAddress('2001:db8:7:7::ff', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(429);
    expect(
      (await fromAddress('2001:db8:7:8::1', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('stops one address after 50 failed sign-ins in 15 minutes across accounts, and only that address', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 50; i++) {
      await fromAddress('203.0.113.50', { email: `nobody-${i}@example.com`, password: 'Wrong-pass-1' });
    }
    const refused = await fromAddress('203.0.113.50', { email: user.email, password: DEFAULT_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: AUTH_MESSAGES.tooManyAttempts });
    expect((await fromAddress('203.0.113.51', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(
      200,
    );
    t.clock.advance(15 * MINUTE + 1000);
    expect((await fromAddress('203.0.113.50', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(
      200,
    );
  });
});

describe('POST auth/otp/ and auth/otp/verify/', () => {
  async function requestCode(mobile: string) {
    const res = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
    expect(res.statusCode).toBe(200);
    return (await latestOutbox(t, `+91-${mobile}`)).code!;
  }

  it('sends a 6-digit code by SMS to the stored number and keeps only its hash', async () => {
    const mobile = uniqueMobile();
    const user = await createUser(t, { mobile });
    const res = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Code sent.', resend_after: 60 });
    const message = await latestOutbox(t, `+91-${mobile}`);
    expect(message.channel).toBe('sms');
    expect(message.code).toMatch(/^\d{6}$/);
    const [stored] = await t.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'otp')));
    expect(stored?.codeHash).not.toContain(message.code!);
    expect(stored!.expiresAt.getTime() - stored!.created.getTime()).toBe(5 * MINUTE);
    const [audit] = (await auditRows(t, 'sign_in.otp_requested')).filter((r) => r.actorId === user.id);
    expect(JSON.stringify(audit)).not.toContain(message.code!);
  });

  it('finds the user when the number is typed with the national trunk 0', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    expect((await post(t, 'auth/otp/', { mobile: `0${mobile}`, mobile_country_code: 'IN' })).statusCode).toBe(
      200,
    );
  });

  it('refuses an invalid number on the field', async () => {
    const invalid = await post(t, 'auth/otp/', { mobile: '12', mobile_country_code: 'IN' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ mobile: [MESSAGES.invalidPhone] });
  });

  it('does not tell a stranger which numbers have an account: known, unknown and disabled numbers get the same answers', async () => {
    const known = uniqueMobile();
    const unknown = uniqueMobile();
    const disabled = uniqueMobile();
    await createUser(t, { mobile: known });
    await createUser(t, { mobile: disabled, isValid: false });
    const answers = async (mobile: string) => {
      const first = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
      const tooEarly = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
      const wrongCode = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: '000000' });
      return [first, tooEarly, wrongCode].map((r) => ({ status: r.statusCode, body: r.json<unknown>() }));
    };
    const forKnown = await answers(known);
    expect(forKnown[0]).toEqual({ status: 200, body: { detail: 'Code sent.', resend_after: 60 } });
    expect(await answers(unknown)).toEqual(forKnown);
    expect(await answers(disabled)).toEqual(forKnown);

    const sms = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.channel, 'sms'));
    const to = sms.map((m) => m.to);
    expect(to).toContain(`+91-${known}`);
    expect(to).not.toContain(`+91-${unknown}`);
    expect(to).not.toContain(`+91-${disabled}`);
  });

  it('never signs in a number without an active account, even with the right code of its stored row', async () => {
    const mobile = uniqueMobile();
    await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
    // The code was never sent; make one we know and store its hash, as if it had been guessed.
    const code = '123456';
    const codeHash = hmacSha256(await t.app.ctx.services.secrets.getSigningSecret(), `+91-${mobile}:${code}`);
    await t.database.db
      .update(oneTimeCodes)
      .set({ codeHash })
      .where(eq(oneTimeCodes.target, `+91-${mobile}`));
    const res = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: [AUTH_MESSAGES.otpInvalid] });
  });

  it('answers an id_token for the right code, and the code works only once', async () => {
    const mobile = uniqueMobile();
    const user = await createUser(t, { mobile });
    const code = await requestCode(mobile);
    const ok = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(ok.statusCode).toBe(200);
    const login = await post(t, 'user/login/', { id_token: ok.json<{ id_token: string }>().id_token });
    expect(login.json<{ id: number }>().id).toBe(user.id);

    const again = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: [AUTH_MESSAGES.otpInvalid] });
  });

  it('refuses a wrong code and counts the try', async () => {
    const mobile = uniqueMobile();
    const user = await createUser(t, { mobile });
    const code = await requestCode(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: [AUTH_MESSAGES.otpInvalid] });
    const [row] = await t.database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(row?.attempts).toBe(1);
    const [audit] = (await auditRows(t, 'sign_in.otp')).filter((r) => r.actorId === user.id);
    expect(audit?.details).toMatchObject({ reason: 'wrong_code' });
    expect(JSON.stringify(audit)).not.toContain(wrong);
    expect(JSON.stringify(audit)).not.toContain(code);
  });

  it('rejects a malformed code with the form message', async () => {
    const res = await post(t, 'auth/otp/verify/', {
      mobile: uniqueMobile(),
      mobile_country_code: 'IN',
      code: '12ab',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: [MESSAGES.invalidOtp] });
  });

  it('burns the code after 5 wrong tries so that even the right code no longer works', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    const code = await requestCode(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: wrong });
      answers.push(res.json<{ code: string[] }>().code[0]!);
    }
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(AUTH_MESSAGES.otpInvalid));
    expect(answers[4]).toBe(AUTH_MESSAGES.otpTooManyTries);
    const right = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ code: [AUTH_MESSAGES.otpTooManyTries] });
  });

  it('refuses a code after its 5 minutes', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    const code = await requestCode(mobile);
    t.clock.advance(5 * MINUTE + 1000);
    const res = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: [AUTH_MESSAGES.otpExpired] });
  });

  it('refuses a resend within 60 seconds with the seconds left and Retry-After', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    await requestCode(mobile);
    t.clock.advance(15_000);
    const res = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ detail: AUTH_MESSAGES.otpResendTooEarly(45) });
    expect(res.headers['retry-after']).toBe('45');
  });

  it('makes a new code replace the previous one', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    const first = await requestCode(mobile);
    t.clock.advance(61_000);
    const second = await requestCode(mobile);
    if (first !== second) {
      const old = await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: first });
      expect(old.json()).toEqual({ code: [AUTH_MESSAGES.otpInvalid] });
    }
    expect(
      (await post(t, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code: second })).statusCode,
    ).toBe(200);
  });

  it('sends at most 5 codes an hour to one number', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    for (let i = 0; i < 5; i++) {
      await requestCode(mobile);
      t.clock.advance(61_000);
    }
    const capped = await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' });
    expect(capped.statusCode).toBe(429);
    expect(capped.json()).toEqual({ detail: AUTH_MESSAGES.otpHourlyLimit });
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);

    t.clock.advance(60 * MINUTE);
    expect((await post(t, 'auth/otp/', { mobile, mobile_country_code: 'IN' })).statusCode).toBe(200);
  });
});

describe('POST auth/password-reset/ and auth/password-reset/confirm/', () => {
  async function requestLink(email: string) {
    const res = await post(t, 'auth/password-reset/', { email });
    expect(res.statusCode).toBe(200);
    const message = await latestOutbox(t, email);
    const token = new URL(message.link!).searchParams.get('token')!;
    return { res, message, token };
  }

  it('e-mails a single-use link and answers the spec notice', async () => {
    const user = await createUser(t);
    const { res, message, token } = await requestLink(user.email!);
    expect(res.json()).toEqual({ detail: AUTH_MESSAGES.resetLinkSent(user.email!) });
    expect(message.channel).toBe('email');
    expect(message.link).toMatch(/^http:\/\/localhost:8080\/reset-password\?token=/);
    expect(message.body).toContain(message.link);
    const [row] = await t.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'password_reset')));
    expect(row?.codeHash).not.toBe(token);
    expect(row!.expiresAt.getTime() - row!.created.getTime()).toBe(60 * MINUTE);
  });

  it('names unknown and disabled accounts and refuses a malformed e-mail', async () => {
    expect((await post(t, 'auth/password-reset/', { email: 'ghost@example.com' })).json()).toEqual({
      non_field_errors: [AUTH_MESSAGES.userNotFound],
    });
    const disabled = await createUser(t, { isValid: false });
    expect((await post(t, 'auth/password-reset/', { email: disabled.email })).json()).toEqual({
      non_field_errors: [AUTH_MESSAGES.userDisabled],
    });
    expect((await post(t, 'auth/password-reset/', { email: 'bad@' })).json()).toEqual({
      email: [AUTH_MESSAGES.invalidEmail],
    });
  });

  it('sets the new password, ends every session and works only once', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user);
    const { token } = await requestLink(user.email!);
    const done = await post(t, 'auth/password-reset/confirm/', { token, password: 'Brand-new-pass9' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ detail: AUTH_MESSAGES.passwordUpdated });

    const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: auth(session) });
    expect(me.statusCode).toBe(401);
    expect(
      (await post(t, 'auth/password/', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(400);
    expect(
      (await post(t, 'auth/password/', { email: user.email, password: 'Brand-new-pass9' })).statusCode,
    ).toBe(200);
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);

    const twice = await post(t, 'auth/password-reset/confirm/', { token, password: 'Another-pass9' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ token: [AUTH_MESSAGES.resetLinkInvalid] });
    const audits = (await auditRows(t, 'password_reset.completed')).filter((r) => r.actorId === user.id);
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain('Brand-new-pass9');
  });

  it('refuses a link older than one hour', async () => {
    const user = await createUser(t);
    const { token } = await requestLink(user.email!);
    t.clock.advance(60 * MINUTE + 1000);
    const res = await post(t, 'auth/password-reset/confirm/', { token, password: 'Brand-new-pass9' });
    expect(res.json()).toEqual({ token: [AUTH_MESSAGES.resetLinkInvalid] });
  });

  it('refuses a weak password without using up the link', async () => {
    const user = await createUser(t);
    const { token } = await requestLink(user.email!);
    const weak = await post(t, 'auth/password-reset/confirm/', { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ password: string[] }>().password).toContain(PASSWORD_RULE_MESSAGE);
    expect(
      (await post(t, 'auth/password-reset/confirm/', { token, password: 'Good-pass-123' })).statusCode,
    ).toBe(200);
  });

  it('makes a newer link replace the previous one', async () => {
    const user = await createUser(t);
    const first = await requestLink(user.email!);
    await requestLink(user.email!);
    const res = await post(t, 'auth/password-reset/confirm/', {
      token: first.token,
      password: 'Good-pass-123',
    });
    expect(res.json()).toEqual({ token: [AUTH_MESSAGES.resetLinkInvalid] });
  });

  it('refuses an unknown token', async () => {
    const res = await post(t, 'auth/password-reset/confirm/', {
      token: 'x'.repeat(43),
      password: 'Good-pass-123',
    });
    expect(res.json()).toEqual({ token: [AUTH_MESSAGES.resetLinkInvalid] });
  });
});

describe('second factor for privileged roles', async () => {
  const strict = await setupTestApp({ RATE_LIMIT_DISABLED: 'true', REQUIRE_SECOND_FACTOR: 'true' });

  it('sends an ADMIN a code to the mobile after the password, and the code gives the id_token', async () => {
    const mobile = uniqueMobile();
    const admin = await createUser(strict, { userType: 'ADMIN', mobile });
    const step1 = await post(strict, 'auth/password/', { email: admin.email, password: DEFAULT_PASSWORD });
    expect(step1.statusCode).toBe(200);
    expect(step1.json()).toEqual({
      second_factor_required: true,
      mobile,
      mobile_country_code: 'IN',
      resend_after: 60,
    });
    const { code } = await latestOutbox(strict, `+91-${mobile}`);
    const step2 = await post(strict, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
    expect(step2.statusCode).toBe(200);
    expect(
      (await post(strict, 'user/login/', { id_token: step2.json<{ id_token: string }>().id_token }))
        .statusCode,
    ).toBe(200);
  });

  const codeFirst = async (mobile: string) => {
    expect((await post(strict, 'auth/otp/', { mobile, mobile_country_code: 'IN' })).statusCode).toBe(200);
    const { code } = await latestOutbox(strict, `+91-${mobile}`);
    return post(strict, 'auth/otp/verify/', { mobile, mobile_country_code: 'IN', code });
  };

  it('does not give a privileged role a session for the mobile code alone: the password is due, then the id_token', async () => {
    for (const userType of ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'] as const) {
      const mobile = uniqueMobile();
      const user = await createUser(strict, { userType, mobile });
      const step1 = await codeFirst(mobile);
      expect(step1.statusCode, userType).toBe(200);
      const answer = step1.json<{ password_required: true; email: string; code_token: string }>();
      expect(answer).toEqual({ password_required: true, email: user.email, code_token: expect.any(String) });
      // The proof of the code is not a sign-in token.
      expect((await post(strict, 'user/login/', { id_token: answer.code_token })).statusCode).toBe(400);

      const step2 = await post(strict, 'auth/password/', {
        email: answer.email,
        password: DEFAULT_PASSWORD,
        code_token: answer.code_token,
      });
      expect(Object.keys(step2.json()), userType).toEqual(['id_token']);
      const login = await post(strict, 'user/login/', { id_token: step2.json<{ id_token: string }>().id_token });
      expect(login.json<{ id: number }>().id).toBe(user.id);
    }
  });

  it('accepts a code_token once, and only with the password of its own account', async () => {
    const mobile = uniqueMobile();
    const admin = await createUser(strict, { userType: 'ADMIN', mobile });
    const other = await createUser(strict, { userType: 'ADMIN', mobile: uniqueMobile() });
    const { code_token } = (await codeFirst(mobile)).json<{ code_token: string }>();

    const wrongPassword = await post(strict, 'auth/password/', { email: admin.email, password: 'Wrong-pass-1', code_token });
    expect(wrongPassword.json()).toEqual({ non_field_errors: [AUTH_MESSAGES.wrongPassword] });
    // Another account's password with this token: that account's own second factor, not a session.
    const elsewhere = await post(strict, 'auth/password/', { email: other.email, password: DEFAULT_PASSWORD, code_token });
    expect(elsewhere.json()).toHaveProperty('second_factor_required', true);
    strict.clock.advance(61_000);
    const reused = await post(strict, 'auth/password/', { email: admin.email, password: DEFAULT_PASSWORD, code_token });
    expect(reused.json()).toHaveProperty('second_factor_required', true);
  });

  it('lets a TECHNICIAN sign in with the mobile code alone', async () => {
    const mobile = uniqueMobile();
    await createUser(strict, { mobile });
    expect(Object.keys((await codeFirst(mobile)).json())).toEqual(['id_token']);
  });

  it('lets a TECHNICIAN sign in with the password alone', async () => {
    const tech = await createUser(strict, { mobile: uniqueMobile() });
    const res = await post(strict, 'auth/password/', { email: tech.email, password: DEFAULT_PASSWORD });
    expect(Object.keys(res.json())).toEqual(['id_token']);
  });

  it('is off by default outside production', async () => {
    const admin = await createUser(t, { userType: 'ADMIN', mobile: uniqueMobile() });
    const res = await post(t, 'auth/password/', { email: admin.email, password: DEFAULT_PASSWORD });
    expect(Object.keys(res.json())).toEqual(['id_token']);
  });
});

describe('per-IP rate limits', async () => {
  // Injected requests come from 127.0.0.1: trusting it as the proxy lets X-Forwarded-For name the client.
  const limited = await setupTestApp({ RATE_LIMIT_DISABLED: 'false', TRUST_PROXY: 'loopback' });

  it('answers 429 {detail} after 20 sign-in calls a minute from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (
          await post(
            limited,
            'auth/password/',
            { email: 'nobody@example.com', password: 'x' },
            { 'x-forwarded-for': '203.0.113.9' },
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    const res = await post(
      limited,
      'auth/password/',
      { email: 'nobody@example.com', password: 'x' },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    expect(res.json()).toEqual({ detail: AUTH_MESSAGES.tooManyAttempts });
    const other = await post(
      limited,
      'auth/password/',
      { email: 'nobody@example.com', password: 'x' },
      { 'x-forwarded-for': '203.0.113.10' },
    );
    expect(other.statusCode).toBe(400);
  });
});
