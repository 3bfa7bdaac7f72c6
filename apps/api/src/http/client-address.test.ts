// The client address (request.ip) is what the per-address sign-in limits count and what the audit log records:
// X-Forwarded-For may set it only when it comes from a proxy named in TRUST_PROXY.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema/index.ts';
import { SIGN_IN_PER_IP_PER_MINUTE } from '@sc/shared/auth';
import { setupTestApp, type TestContext } from '../test/app.ts';
import { createUser } from '../test/factories.ts';

const direct = await setupTestApp();
const behindProxy = await setupTestApp({ TRUST_PROXY: '10.0.0.1' });

let n = 0;
/** A wrong sign-in from `remoteAddress`, with an optional X-Forwarded-For. */
const wrongSignIn = (t: TestContext, remoteAddress: string, forwardedFor?: string, email = `nobody${++n}@example.com`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/password/',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { email, password: 'Wrong-pass1' },
  });

const auditIps = async (t: TestContext, userId: number) =>
  (await t.database.db.select({ ip: auditLog.ip }).from(auditLog).where(eq(auditLog.actorId, userId))).map((r) => r.ip);

describe('client address without TRUST_PROXY', () => {
  it('a spoofed X-Forwarded-For does not reset the per-address sign-in limit', async () => {
    for (let i = 0; i < SIGN_IN_PER_IP_PER_MINUTE; i++) {
      const res = await wrongSignIn(direct, '203.0.113.5', `198.51.100.${i}`);
      expect(res.statusCode).toBe(400);
    }
    const next = await wrongSignIn(direct, '203.0.113.5', '198.51.100.250');
    expect(next.statusCode).toBe(429);
    expect(next.json()).toEqual({ detail: expect.any(String) });
    // Another address still has its own allowance.
    expect((await wrongSignIn(direct, '203.0.113.6')).statusCode).toBe(400);
  });

  it('the audit log records the connecting address, not a spoofed X-Forwarded-For', async () => {
    const user = await createUser(direct);
    const res = await wrongSignIn(direct, '203.0.113.9', '198.51.100.77', user.email!);
    expect(res.statusCode).toBe(400);
    expect(await auditIps(direct, user.id)).toEqual(['203.0.113.9']);
  });
});

describe('client address behind a trusted proxy (TRUST_PROXY=10.0.0.1)', () => {
  it('counts the sign-in limit per forwarded client address', async () => {
    for (let i = 0; i < SIGN_IN_PER_IP_PER_MINUTE; i++) {
      expect((await wrongSignIn(behindProxy, '10.0.0.1', '198.51.100.20')).statusCode).toBe(400);
    }
    expect((await wrongSignIn(behindProxy, '10.0.0.1', '198.51.100.20')).statusCode).toBe(429);
    // Another client behind the same proxy is not locked out by the first.
    expect((await wrongSignIn(behindProxy, '10.0.0.1', '198.51.100.21')).statusCode).toBe(400);
  });

  it('the audit log records the client address the trusted proxy forwards', async () => {
    const user = await createUser(behindProxy);
    await wrongSignIn(behindProxy, '10.0.0.1', '198.51.100.30', user.email!);
    expect(await auditIps(behindProxy, user.id)).toEqual(['198.51.100.30']);
  });

  it('ignores X-Forwarded-For from an address that is not the trusted proxy', async () => {
    const user = await createUser(behindProxy);
    await wrongSignIn(behindProxy, '203.0.113.40', '198.51.100.31', user.email!);
    expect(await auditIps(behindProxy, user.id)).toEqual(['203.0.113.40']);
  });
});
