import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { auth, createUser, signIn, uniqueMobile } from '../../test/factories.ts';
import { isLoopbackAddress, outboxRecipients } from './dev.routes.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const production = await setupTestApp({ NODE_ENV: 'production', RATE_LIMIT_DISABLED: 'true' });
const noDemo = await setupTestApp({ LOAD_DEMO: 'never', RATE_LIMIT_DISABLED: 'true' });
const published = await setupTestApp({ RATE_LIMIT_DISABLED: 'true', PUBLIC_URL: 'https://console.example.org' });

const OUTBOX = '/api/v1/dev/outbox/?to=someone@example.com';

type Message = { to: string; channel: string; code: string | null; link: string | null };
const read = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/dev/outbox/?${query}` });
  expect(res.statusCode).toBe(200);
  return res.json<Message[]>();
};

describe('GET dev/outbox/', () => {
  it('lists the messages sent to one e-mail, newest first', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 2; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset/',
        payload: { email: user.email },
      });
      t.clock.advance(1000);
    }
    const other = await createUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/',
      payload: { email: other.email },
    });
    const messages = await read(`to=${encodeURIComponent(user.email!)}`);
    expect(messages).toHaveLength(2);
    expect(messages.every((m) => m.to === user.email && m.channel === 'email')).toBe(true);
    expect(messages[0]!.link).not.toBe(messages[1]!.link);
    const [, older] = messages;
    // The older link was replaced by the newer one: the newest message is first.
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm/',
      payload: { token: new URL(older!.link!).searchParams.get('token'), password: 'Good-pass-123' },
    });
    expect(confirm.statusCode).toBe(400);
  });

  it('finds an SMS by the stored number, by national digits with a country, and with "+" decoded as a space', async () => {
    const mobile = uniqueMobile();
    await createUser(t, { mobile });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/otp/',
      payload: { mobile, mobile_country_code: 'IN' },
    });
    for (const query of [
      `to=${encodeURIComponent(`+91-${mobile}`)}`,
      `to=${mobile}&country=IN`,
      `to=${mobile}`,
      `to=+91-${mobile}`,
    ]) {
      const messages = await read(query);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        channel: 'sms',
        to: `+91-${mobile}`,
        code: expect.stringMatching(/^\d{6}$/),
      });
    }
  });

  it('an anonymous caller cannot read the outbox from another host', async () => {
    for (const remoteAddress of ['203.0.113.7', '192.168.1.20', '::ffff:203.0.113.7', '2001:db8::7']) {
      const res = await t.app.inject({ method: 'GET', url: OUTBOX, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('a caller on this machine reads it over IPv4, IPv6 and IPv4-mapped loopback', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.inject({ method: 'GET', url: OUTBOX, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
    }
  });

  it('a page on a DNS-rebinding domain cannot read it from this machine', async () => {
    for (const headers of [
      { host: 'rebind.attacker.example' },
      { host: 'rebind.attacker.example:8080' },
      { host: '127.0.0.1.rebind.example' },
      { host: 'localhost.attacker.example' },
      { host: 'localhost:8080', 'x-forwarded-host': 'rebind.attacker.example' },
    ]) {
      for (const remoteAddress of ['127.0.0.1', '::1']) {
        const res = await t.app.inject({ method: 'GET', url: OUTBOX, remoteAddress, headers });
        expect(res.statusCode, `${remoteAddress} ${JSON.stringify(headers)}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
    }
  });

  it('a caller on this machine reads it by localhost, a loopback address or the PUBLIC_URL host', async () => {
    for (const host of ['localhost', 'LOCALHOST:8080', '127.0.0.1:8080', '[::1]:8080']) {
      const res = await t.app.inject({ method: 'GET', url: OUTBOX, remoteAddress: '127.0.0.1', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    const byPublicHost = await published.app.inject({
      method: 'GET',
      url: OUTBOX,
      remoteAddress: '127.0.0.1',
      headers: { host: 'console.example.org' },
    });
    expect(byPublicHost.statusCode).toBe(200);
  });

  it('X-Forwarded-For cannot make a remote caller look local', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: OUTBOX,
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('a request a proxy on this machine forwards for another host cannot read the outbox', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7;proto=https' },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: OUTBOX, remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
    }
  });

  it('a signed-in ADMIN reads it from another host; other roles do not', async () => {
    const admin = await createUser(t, { userType: 'ADMIN' });
    const subAdmin = await createUser(t, { userType: 'SUB_ADMIN' });
    const remote = { method: 'GET' as const, url: OUTBOX, remoteAddress: '203.0.113.7' };
    const asAdmin = await t.app.inject({ ...remote, headers: auth(await signIn(t, admin)) });
    expect(asAdmin.statusCode).toBe(200);
    const asSubAdmin = await t.app.inject({ ...remote, headers: auth(await signIn(t, subAdmin)) });
    expect(asSubAdmin.statusCode).toBe(404);
  });

  it('is not served outside demo mode (no demo data in use)', async () => {
    const res = await noDemo.app.inject({ method: 'GET', url: OUTBOX, remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('is not served in production', async () => {
    const res = await production.app.inject({
      method: 'GET',
      url: '/api/v1/dev/outbox/?to=someone@example.com',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('isLoopbackAddress', () => {
  it('knows loopback in every written form and nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '[::1]:8080', '127.0.0.1:5000']) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.1', '0.0.0.0', '::', '::ffff:10.0.0.1', 'localhost', '', 'unknown', '128.0.0.1']) {
      expect(isLoopbackAddress(a), a).toBe(false);
    }
  });
});

describe('outboxRecipients', () => {
  it('reads e-mails, stored mobiles and national numbers', () => {
    expect(outboxRecipients('Jane@Example.com')).toEqual(['Jane@Example.com', 'jane@example.com']);
    expect(outboxRecipients('+91-9876500001')).toEqual(['+91-9876500001']);
    expect(outboxRecipients('91-9876500001')).toEqual(['+91-9876500001']);
    expect(outboxRecipients('07700900123', 'GB')).toContain('+44-7700900123');
  });
});
