// Phone numbers however typed (issue 23.3): every list that searches a mobile finds it typed with spaces, hyphens or a
// leading +dial code (http/search.ts searchPatterns); the user and patient forms accept '+91 98765 43210' as the
// number stored '+91-9876543210' and refuse a wrong one on its field, changing nothing.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { otherCountryMessage } from '@sc/shared/phone';
import { MESSAGES } from '@sc/shared/validation';
import { bookings, patients, scans, slots, users } from '../db/schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const { db } = t.database;
const API = '/api/v1';
const admin = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
const get = (url: string) =>
  t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { ...auth(admin), timezone: 'UTC' } });
const post = (url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `${API}${url}`,
    headers: { ...auth(admin), timezone: 'UTC' },
    payload,
  });

let seq = 0;
const uniqueEmail = () => `phone${++seq}-${process.pid}@example.com`;

const STORED = '+91-9582814405';
const TYPED = ['+919582814405', '95828 14405', '+91 95828 14405', '9582814405', '+91-95828-14405', '958-281'];

describe('search by a mobile however typed', async () => {
  const org = await createOrganization(t);
  const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id, mobile: STORED });
  const [patient] = await db
    .insert(patients)
    .values({ firstName: 'Phone', lastName: 'Search', age: 40, organizationId: org.id, mobile: STORED })
    .returning();
  const [scan] = await db
    .insert(scans)
    .values({
      patientId: patient!.id,
      organizationId: org.id,
      technicianId: tech.id,
      dateTime: new Date(),
      localDbId: 'ps-1',
    })
    .returning();
  const [slot] = await db
    .insert(slots)
    .values({
      organizationId: org.id,
      start: new Date('2026-03-02T09:00:00Z'),
      end: new Date('2026-03-02T10:00:00Z'),
    })
    .returning();
  const [booking] = await db
    .insert(bookings)
    .values({
      token: 'tok-phone',
      firstName: 'Phone',
      organizationId: org.id,
      slotId: slot!.id,
      mobile: STORED,
      currency: 'INR',
    })
    .returning();
  const idsOf = async (url: string, term: string) => {
    const res = await get(`${url}?limit=100&search=${encodeURIComponent(term)}`);
    expect(res.statusCode, `${url} ${term}: ${res.body}`).toBe(200);
    return (res.json().results as { id: number }[]).map((r) => r.id);
  };

  it.each(TYPED)('finds the patient, the user, the breast scan and the booking for %j', async (term) => {
    expect(await idsOf('/patient/', term)).toEqual([patient!.id]);
    expect(await idsOf('/organization/user/', term)).toEqual([tech.id]);
    expect(await idsOf('/scan/', term)).toEqual([scan!.id]);
    expect(await idsOf('/booking/', term)).toEqual([booking!.id]);
  });

  it('finds nothing for another number typed the same ways', async () => {
    for (const term of ['+91 95828 14406', '+44 95828 14405', '95828 14406']) {
      expect(await idsOf('/patient/', term), term).toEqual([]);
      expect(await idsOf('/organization/user/', term), term).toEqual([]);
    }
  });
});

describe('a mobile typed with spaces and +91 on create', () => {
  it('stores the user’s and the patient’s mobile in one form', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const user = await post('/organization/user/', {
      first_name: 'Asha',
      last_name: 'Rao',
      user_type: 'ORG_ADMIN',
      organization: org.id,
      email: uniqueEmail(),
      mobile: '+91 98765 43210',
      mobile_country_code: 'IN',
    });
    expect(user.statusCode, user.body).toBe(201);
    expect(user.json()).toMatchObject({ mobile: '+91-9876543210' });
    const patient = await post('/patient/', {
      first_name: 'Meera',
      last_name: 'Nair',
      age: 40,
      organization: org.id,
      technician: tech.id,
      mobile: '+91 98765 43211',
      mobile_country_code: 'IN',
    });
    expect(patient.statusCode, patient.body).toBe(201);
    expect(patient.json()).toMatchObject({ mobile: '+91-9876543211' });
  });

  it('refuses a wrong number or another country’s on the field, with 400, and creates nothing', async () => {
    const org = await createOrganization(t);
    const tech = await createUser(t, { userType: 'TECHNICIAN', organizationId: org.id });
    const before = [
      (await db.select({ id: users.id }).from(users)).length,
      (await db.select({ id: patients.id }).from(patients)).length,
    ];
    for (const [mobile, message] of [
      ['+91 12345', MESSAGES.invalidPhone],
      ['98765 4321', MESSAGES.invalidPhone],
      ['+44 7911 123456', otherCountryMessage('+44', '+91')],
    ] as const) {
      const user = await post('/organization/user/', {
        first_name: 'Asha',
        last_name: 'Rao',
        user_type: 'ORG_ADMIN',
        organization: org.id,
        email: uniqueEmail(),
        mobile,
        mobile_country_code: 'IN',
      });
      expect({ status: user.statusCode, body: user.json() }, mobile).toEqual({
        status: 400,
        body: { mobile: [message] },
      });
      const patient = await post('/patient/', {
        first_name: 'Meera',
        last_name: 'Nair',
        age: 40,
        organization: org.id,
        technician: tech.id,
        mobile,
        mobile_country_code: 'IN',
      });
      expect({ status: patient.statusCode, body: patient.json() }, mobile).toEqual({
        status: 400,
        body: { mobile: [message] },
      });
    }
    const after = [
      (await db.select({ id: users.id }).from(users)).length,
      (await db.select({ id: patients.id }).from(patients)).length,
    ];
    expect(after).toEqual(before);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.mobile, '+44-7911123456'))).toEqual(
      [],
    );
  });
});
