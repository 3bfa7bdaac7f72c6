// Answers carrying patient data are never kept by a browser or proxy cache, and HSTS goes only over HTTPS.
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app.ts';
import { auth, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const behindProxy = await setupTestApp({ TRUST_PROXY: 'true' });

describe('Cache-Control of API answers', () => {
  it('patient, scan, exam and booking JSON is never stored by a cache, and neither is an error', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    const token = await signIn(t, admin);
    for (const url of ['patient/', 'scan/', 'cervaical/', 'orca/', 'booking/', 'patient/999999/', 'scan/999999/']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth(token) });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/patient/' });
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('public reference lists keep the caching their route chose', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/timezone/' });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/timezone/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('is not sent when a client that is not a trusted proxy claims HTTPS', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/timezone/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent behind TRUST_PROXY when the proxy says the request came over HTTPS', async () => {
    const res = await behindProxy.app.inject({
      method: 'GET',
      url: '/api/v1/timezone/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
