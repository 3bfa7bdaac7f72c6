import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createUser, uniqueMobile } from '../../test/factories.ts';
import { outboxRecipients } from './dev.routes.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
const production = await setupTestApp({ NODE_ENV: 'production', RATE_LIMIT_DISABLED: 'true' });

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

  it('is not served in production', async () => {
    const res = await production.app.inject({
      method: 'GET',
      url: '/api/v1/dev/outbox/?to=someone@example.com',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
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
