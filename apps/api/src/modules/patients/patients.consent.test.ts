// The patient's follow-up reminder consent (issue 26): `reminder_consent` and `consent_language` through the
// console's create and edit and the device upload; the language must be a Language's iso code; the list and the
// detail show both.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TPaginated } from '@sc/shared/list';
import { PATIENT_MESSAGES, type TPatient } from '@sc/shared/patients';
import { patients } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createLanguage, createOrganization, createUser, signIn } from '../../test/factories.ts';
import { patientBody, post, setupUploader } from '../uploads/uploads.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1';

const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { ...auth(token), timezone: 'UTC' }, ...(payload ? { payload } : {}) });

await createLanguage(t, { name: 'Consent Q', isoCode: 'qx' });
await createLanguage(t, { name: 'Consent R', isoCode: 'qyr' });

async function consoleSetup() {
  const org = await createOrganization(t);
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
  const admin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: org.id });
  return { org, tech, token: await signIn(t, admin) };
}
const body = (tech: number, over: Record<string, unknown> = {}) => ({
  first_name: 'Meera',
  last_name: 'Nair',
  age: 40,
  mobile: '9876543210',
  technician: tech,
  ...over,
});
const stored = async (id: number) => (await db.select().from(patients).where(eq(patients.id, id)))[0]!;

describe('reminder consent from the console', () => {
  it('stores the consent and the language (read lower case) and shows both in the detail and the list', async () => {
    const s = await consoleSetup();
    const res = await call(s.token, 'POST', '/patient/', body(s.tech.id, { reminder_consent: true, consent_language: ' QX ' }));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<TPatient>().id;
    expect(res.json()).toMatchObject({ reminder_consent: true, consent_language: 'qx' });
    expect(await stored(id)).toMatchObject({ reminderConsent: true, consentLanguage: 'qx' });

    const detail = await call(s.token, 'GET', `/patient/${id}/`);
    expect(detail.json()).toMatchObject({ reminder_consent: true, consent_language: 'qx' });
    const list = await call(s.token, 'GET', `/patient/?organization_id=${s.org.id}`);
    expect(list.json<TPaginated<TPatient>>().results.find((p) => p.id === id)).toMatchObject({
      reminder_consent: true,
      consent_language: 'qx',
    });
  });

  it('defaults to no consent and no language', async () => {
    const s = await consoleSetup();
    const res = await call(s.token, 'POST', '/patient/', body(s.tech.id));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ reminder_consent: false, consent_language: null });
  });

  it('answers 400 on the field for an unknown language or a bad consent, and stores nothing', async () => {
    const s = await consoleSetup();
    const before = (await db.select().from(patients).where(eq(patients.organizationId, s.org.id))).length;
    for (const [over, field, message] of [
      [{ consent_language: 'zz' }, 'consent_language', PATIENT_MESSAGES.consentLanguage],
      [{ consent_language: 'english' }, 'consent_language', PATIENT_MESSAGES.consentLanguage],
      [{ consent_language: 12 }, 'consent_language', PATIENT_MESSAGES.consentLanguage],
      [{ reminder_consent: 'yes' }, 'reminder_consent', PATIENT_MESSAGES.consentBoolean],
      [{ reminder_consent: null }, 'reminder_consent', PATIENT_MESSAGES.consentBoolean],
    ] as const) {
      const res = await call(s.token, 'POST', '/patient/', body(s.tech.id, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json(), JSON.stringify(over)).toEqual({ [field]: [message] });
    }
    expect((await db.select().from(patients).where(eq(patients.organizationId, s.org.id))).length).toBe(before);
  });

  it('edits the consent and the language; null clears the language; an unknown one changes nothing', async () => {
    const s = await consoleSetup();
    const id = (await call(s.token, 'POST', '/patient/', body(s.tech.id))).json<TPatient>().id;
    const on = await call(s.token, 'PATCH', `/patient/${id}/`, { reminder_consent: true, consent_language: 'qyr' });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ reminder_consent: true, consent_language: 'qyr' });

    const bad = await call(s.token, 'PATCH', `/patient/${id}/`, { reminder_consent: false, consent_language: 'zz' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ consent_language: [PATIENT_MESSAGES.consentLanguage] });
    expect(await stored(id)).toMatchObject({ reminderConsent: true, consentLanguage: 'qyr' });

    // A patch that does not name them keeps them.
    await call(s.token, 'PATCH', `/patient/${id}/`, { last_name: 'Menon' });
    expect(await stored(id)).toMatchObject({ lastName: 'Menon', reminderConsent: true, consentLanguage: 'qyr' });

    const cleared = await call(s.token, 'PATCH', `/patient/${id}/`, { reminder_consent: false, consent_language: null });
    expect(cleared.json()).toMatchObject({ reminder_consent: false, consent_language: null });
    const empty = await call(s.token, 'PATCH', `/patient/${id}/`, { consent_language: 'qx' });
    expect(empty.json()).toMatchObject({ consent_language: 'qx' });
    expect((await call(s.token, 'PATCH', `/patient/${id}/`, { consent_language: '' })).json()).toMatchObject({ consent_language: null });
  });
});

describe('reminder consent from a device', () => {
  it('stores what the device sends, and refuses an unknown language', async () => {
    const s = await setupUploader(t);
    const res = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber, { reminder_consent: true, consent_language: 'qx' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ reminder_consent: true, consent_language: 'qx' });

    const plain = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber));
    expect(plain.json()).toMatchObject({ reminder_consent: false, consent_language: null });

    const bad = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber, { reminder_consent: true, consent_language: 'zz' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ consent_language: [PATIENT_MESSAGES.consentLanguage] });
    const notBool = await post(t, s.token, '/patient/', patientBody(s.device.serialNumber, { reminder_consent: 'true' as unknown as boolean }));
    expect(notBool.statusCode).toBe(400);
    expect(notBool.json()).toEqual({ reminder_consent: [PATIENT_MESSAGES.consentBoolean] });
  });
});
