// No secret and no patient data reaches the server log: a failed query's SQL parameters, secret fields of logged
// objects, tokens in free text, search terms and tokens of request URLs. The log (at debug, every line the app writes)
// of real requests is captured and searched.
import { describe, expect, it } from 'vitest';
import type { TBookingLink, TPublicBooking } from '@sc/shared/bookings';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { patients } from '../db/schema/index.ts';
import { createConsoleLogger, loggablePath, redactSecrets, scrubText, summarizeError } from '../services/logger.ts';
import { captureLog, setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn, uniqueMobile } from '../test/factories.ts';

const log = captureLog();
const t = await setupTestApp({ LOG_LEVEL: 'debug' }, { logStream: log });
const API = '/api/v1';

describe('the server log', () => {
  it('a query that fails with a webhook token among its parameters logs neither the token nor the parameters', async () => {
    // Make the database refuse this token: the UPDATE fails inside PostgreSQL with the token as a bound parameter
    // (and in the error's "Failing row contains (…)" detail).
    await t.database.exec(
      `ALTER TABLE organizations ADD CONSTRAINT test_refuses_token CHECK (webhook_auth_token IS NULL OR webhook_auth_token NOT LIKE 'refused-%')`,
    );
    const token = 'refused-WebhookSecret-7c1f9a';
    const admin = await createUser(t, { userType: 'ADMIN' });
    const sessionToken = await signIn(t, admin);
    const org = await createOrganization(t);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/organization/${org.id}/`,
      headers: { ...auth(sessionToken), 'x-impersonation-token': 'abcdefghijklmnop0123' },
      payload: { webhook_auth_token: token },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'A server error occurred.' });

    const text = log.text();
    const failure = log.lines().find((l) => l.msg === 'unhandled error');
    // The failure is logged, with what an operator needs: the error's class, SQLSTATE and constraint.
    expect(failure).toBeDefined();
    expect(JSON.stringify(failure)).toContain('23514');
    expect(JSON.stringify(failure)).toContain('test_refuses_token');
    // …and none of the secrets.
    expect(text).not.toContain('WebhookSecret');
    expect(text).not.toContain(sessionToken);
    expect(text).not.toContain('abcdefghijklmnop0123');
    expect(text).not.toMatch(/params: (?!\[Redacted\])/);
    expect(text).not.toContain('Failing row contains');
  });
});

describe('the request log', () => {
  it('holds no patient name, mobile number or token of a journey through patient search and public booking', async () => {
    // Monday 2026-03-02 00:00 in Kolkata: the clinic's slots lie ahead.
    t.clock.set(new Date('2026-03-01T18:30:00Z'));
    const admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const org = await createOrganization(t, { timezone: 'Asia/Kolkata', isBookingEnabled: true, availableDays: [0, 1, 2, 3, 4], price: 0 });
    const mobile = uniqueMobile();
    await t.database.db.insert(patients).values({ firstName: 'Zenobia', lastName: 'Quillfeather', age: 40, mobile, mobileCountryCode: '+91', organizationId: org.id });
    const get = (url: string, headers = {}) => t.app.inject({ method: 'GET', url, headers: { ...headers, timezone: 'UTC' } });

    for (const search of ['Zenobia%20Quillfeather', mobile]) {
      const found = await get(`${API}/patient/?search=${search}`, auth(admin));
      expect(found.json<{ count: number }>().count, search).toBe(1);
    }
    const link = await get(`${API}/booking/link/${org.id}/`, auth(admin));
    const { token } = link.json<TBookingLink>();
    expect((await get(`${API}/appointment/${token}/`)).statusCode).toBe(200);
    expect((await get(`${API}/appointment/${token}/slot/?date=2026-03-03`)).statusCode).toBe(200);
    const booked = await t.app.inject({
      method: 'POST',
      url: `${API}/appointment/${token}/booking/`,
      payload: { start: '2026-03-03T03:30:00.000Z', first_name: 'Zenobia', last_name: 'Quillfeather', mobile, email: '', age: 40 },
    });
    expect(booked.statusCode).toBe(201);
    const bookingToken = booked.json<TPublicBooking>().token;
    expect((await get(`${API}/appointment/${token}/booking/${bookingToken}/`)).statusCode).toBe(200);
    // A mistyped link, and the console's pages (served or not): the path and query of these are logged too.
    expect((await get(`${API}/appointment/${token}/bookings/?name=Zenobia`)).statusCode).toBe(404);
    await get(`/book/${token}/booking/${bookingToken}`);
    await get(`/reset-password?email=zenobia%40example.com&token=ResetLinkToken0123456789`);

    const text = log.text();
    for (const secret of ['Zenobia', 'zenobia', 'Quillfeather', mobile, token, bookingToken, 'ResetLinkToken', admin]) {
      expect(text, secret).not.toContain(secret);
    }
    // The requests were logged, as their route.
    expect(text).toContain(`"url":"${API}/appointment/[Redacted]/booking/[Redacted]/"`);
    expect(text).toContain(`"url":"${API}/patient/"`);
  });

  it('a production log at info holds no line for a quick request', async () => {
    const out = captureLog();
    const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: '.test-data', SECRET_KEY: 'test-secret-key-0123456789' }), isProduction: true };
    const app = await buildApp({ config, database: t.database, logger: { stream: out } });
    try {
      expect((await app.inject({ method: 'GET', url: `${API}/patient/` })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: `${API}/no-such-page/` })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
    expect(out.lines()).toEqual([]);
  });

  it('keeps ids and route words of a path and masks the rest', () => {
    expect(loggablePath('/api/v1/organization/user/42/re-certify/?search=asha')).toBe('/api/v1/organization/user/42/re-certify/');
    expect(loggablePath('/api/v1/appointment/Ab3_xY9-kLmN0pQrStUvWx/booking/a1b2c3/cancel/')).toBe(
      '/api/v1/appointment/[Redacted]/booking/[Redacted]/cancel/',
    );
    expect(loggablePath('/assets/index.js#top')).toBe('/assets/index.js');
    expect(loggablePath('/patient/9812345678/')).toBe('/patient/[Redacted]/');
  });
});

describe('log redaction', () => {
  it('masks secret fields at any depth, whatever their spelling', () => {
    const out = redactSecrets({
      user: { id: 1, password: 'p4ss', passwordHash: '$argon2id$…' },
      organization: { webhook_auth_token: 'tok-1', webhookAuthToken: 'tok-2', name: 'Clinic' },
      headers: { authorization: 'Token abc', cookie: 'sid=1', 'x-impersonation-token': 'imp' },
      sms: { otp: '123456', code: '654321', pin: '1234', id_token: 'idt', link: 'https://x/reset?token=t' },
      list: [{ secret: 's', token_hash: 'h' }],
      statusCode: 500,
    });
    const json = JSON.stringify(out);
    for (const secret of ['p4ss', 'argon2id', 'tok-1', 'tok-2', 'Token abc', 'sid=1', 'imp"', '123456', '654321', '"1234"', 'idt', 'reset?token', '"s"', '"h"']) {
      expect(json, secret).not.toContain(secret);
    }
    expect(json).toContain('Clinic');
    expect(json).toContain('500');
  });

  it('summarises an error as class, code and message, without the parameters Drizzle puts in both', () => {
    const cause = Object.assign(new Error('new row violates check constraint "c"'), {
      code: '23514',
      detail: 'Failing row contains (1, secret-token).',
      constraint: 'c',
    });
    const error = Object.assign(new Error('Failed query: update "organizations" set "webhook_auth_token" = $1\nparams: secret-token,7'), {
      query: 'update …',
      params: ['secret-token', 7],
      cause,
    });
    const summary = summarizeError(error);
    expect(JSON.stringify(summary)).not.toContain('secret-token');
    expect(summary.message).toBe('Failed query: update "organizations" set "webhook_auth_token" = $1\nparams: [Redacted]');
    expect(summary.cause).toMatchObject({ code: '23514', constraint: 'c', message: 'new row violates check constraint "c"' });
  });

  it('masks credentials written into free text', () => {
    expect(scrubText('sent Authorization: Token 0123456789abcdefXYZ')).toBe('sent Authorization: Token [Redacted]');
    expect(scrubText('GET /reset?email=a@b.co&token=abc123')).toBe('GET /reset?email=a@b.co&token=[Redacted]');
  });

  it('the services logger applies the same rules', () => {
    const out = captureLog();
    const logger = createConsoleLogger('info', { out, err: out });
    logger.warn({ error: new Error('Failed query: select 1\nparams: hunter2'), webhook_auth_token: 'tok' }, 'job failed');
    logger.error({}, 'Failed query: select $1\nparams: hunter2');
    expect(out.text()).not.toContain('hunter2');
    expect(out.text()).not.toContain('"tok"');
    expect(out.lines()).toHaveLength(2);
  });
});
