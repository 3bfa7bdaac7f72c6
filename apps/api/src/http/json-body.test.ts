import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app.ts';
import { createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();

describe('JSON bodies', () => {
  it('accepts a body-less POST declared as JSON, as browsers send for sign-out', async () => {
    const user = await createUser(t, { userType: 'ADMIN' });
    const token = await signIn(t, user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/logout/',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/user/', headers: { authorization: `Token ${token}` } });
    expect(after.statusCode).toBe(401);
  });

  it('answers 400, not 500, to malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['JSON parse error - the request body is not valid JSON.'] });
  });

  it('refuses a body that tries to poison the object prototype', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "password": "x", "__proto__": {"isAdmin": true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['JSON parse error - the request body is not valid JSON.'] });
  });
});
