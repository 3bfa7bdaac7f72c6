// Sign-in by mobile code reads a number however it is typed (issue 6): with or without the country code, spaced or
// hyphenated, it is the stored number; anything that is not one valid mobile of the chosen country is refused on
// the field with the phone message.
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { otherCountryMessage } from '@sc/shared/phone';
import { MESSAGES } from '@sc/shared/validation';
import { outboxMessages } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { createUser, uniqueMobile } from '../../test/factories.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload });

async function latestCode(to: string): Promise<string> {
  const [m] = await t.database.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, to), eq(outboxMessages.channel, 'sms')))
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  if (!m?.code) throw new Error(`no code sent to ${to}`);
  return m.code;
}

describe('sign-in by mobile code', () => {
  it.each([
    ['with the country code', (n: string) => `+91${n}`],
    ['with the country code and spaces', (n: string) => `+91 ${n.slice(0, 5)} ${n.slice(5)}`],
    ['with the country code and a hyphen', (n: string) => `+91-${n}`],
    ['with the trunk zero', (n: string) => `0${n}`],
  ])('accepts the number typed %s, sends the code to the stored number and verifies it', async (_label, typed) => {
    const national = uniqueMobile();
    const user = await createUser(t, { userType: 'ORG_ADMIN', mobile: national });
    expect(user.mobile).toBe(`+91-${national}`);

    const sent = await post('auth/otp/', { mobile: typed(national), mobile_country_code: 'IN' });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = await latestCode(`+91-${national}`);

    // Verified with the number typed another way: still the same number.
    const verified = await post('auth/otp/verify/', { mobile: national, mobile_country_code: 'IN', code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toHaveProperty('id_token');
  });

  it.each([
    '+1555',
    '0000000000',
    '12345678901234567890',
    '9876500001,9876500002',
    '9876500001\n9876500002',
    '９８７６５００００１',
    '٩٨٧٦٥٠٠٠٠١',
  ])('refuses %j on the mobile field with the phone message', async (mobile) => {
    for (const url of ['auth/otp/', 'auth/otp/verify/']) {
      const res = await post(url, { mobile, mobile_country_code: 'IN', code: '123456' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ mobile: [MESSAGES.invalidPhone] });
    }
  });

  it('says a valid number of another country is not the chosen country’s (issue 23.3)', async () => {
    for (const url of ['auth/otp/', 'auth/otp/verify/']) {
      const res = await post(url, { mobile: '+12025550123', mobile_country_code: 'IN', code: '123456' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ mobile: [otherCountryMessage('+1', '+91')] });
    }
  });
});
