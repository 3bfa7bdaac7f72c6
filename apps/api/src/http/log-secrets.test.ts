// No secret reaches the server log: a failed query's SQL parameters, secret fields of logged objects, tokens in
// free text. The log of a real failing request is captured and searched.
import { describe, expect, it } from 'vitest';
import { createConsoleLogger, redactSecrets, scrubText, summarizeError } from '../services/logger.ts';
import { captureLog, setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const log = captureLog();
const t = await setupTestApp({}, { logStream: log });

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
