// patient_search (migration 0018) must equal patients.search_text after anything that writes patients: inserts (one
// row and many), renames, a new mobile or e-mail, updates that change no searched field, deletes; and the scan list's
// search, which reads it, must find a renamed patient's scans by the new name only.
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { patients, scans } from './schema/index.ts';
import { setupTestApp } from '../test/app.ts';
import { auth, createOrganization, createUser, signIn } from '../test/factories.ts';

const t = await setupTestApp();
const db = t.database.db;

/** Patients whose patient_search row is missing, extra or different. */
async function mismatches(): Promise<unknown[]> {
  return t.database.query(
    `SELECT p.id, p.search_text, s.patient_id, s.search_text AS stored FROM patients p
       FULL JOIN patient_search s ON s.patient_id = p.id
      WHERE p.id IS NULL OR s.patient_id IS NULL OR s.search_text IS DISTINCT FROM coalesce(p.search_text, '')`,
  );
}

describe('patient_search', () => {
  it('stays equal to patients.search_text through inserts, updates and deletes', async () => {
    const org = await createOrganization(t, { name: 'Search Sync Clinic' });
    const inserted = await db
      .insert(patients)
      .values([
        { firstName: 'Meera', lastName: 'Iyer', organizationId: org.id },
        { firstName: 'Zainab', lastName: 'Bello', mobile: '8012345678', organizationId: org.id },
        { firstName: 'Ruth', organizationId: org.id, email: 'ruth@example.test' },
      ])
      .returning();
    await db.insert(patients).values({ firstName: 'Solo', organizationId: org.id });
    expect(await mismatches()).toEqual([]);
    const [meera, zainab, ruth] = inserted.map((r) => r.id) as [number, number, number];
    await db.update(patients).set({ lastName: 'Krishnan' }).where(eq(patients.id, meera));
    await db.update(patients).set({ mobile: '8099999999', email: 'z@b.test' }).where(eq(patients.id, zainab));
    await db.update(patients).set({ age: 41 }).where(inArray(patients.id, [ruth, zainab]));
    expect(await mismatches()).toEqual([]);
    const [row] = await t.database.query<{ search_text: string }>(
      'SELECT search_text FROM patient_search WHERE patient_id = $1',
      [meera],
    );
    expect(row?.search_text).toContain('meera krishnan');
    await db.delete(patients).where(eq(patients.id, ruth));
    expect(await mismatches()).toEqual([]);
  });

  it('lets the scan list find a renamed patient by the new name only', async () => {
    const org = await createOrganization(t, { name: 'Rename Clinic' });
    const token = await signIn(t, await createUser(t, { userType: 'ADMIN' }));
    const [patient] = await db
      .insert(patients)
      .values({ firstName: 'Oldname', lastName: 'Quux', organizationId: org.id })
      .returning();
    await db.insert(scans).values({
      patientId: patient!.id,
      organizationId: org.id,
      deviceSerialNumber: 'IBE-RN1',
      dateTime: new Date('2026-01-05T10:00:00Z'),
      localDbId: 'rename-1',
    });
    const search = async (term: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/api/v1/scan/?search=${term}`, headers: auth(token) })
      ).json<{ count: number }>().count;
    expect(await search('oldname')).toBe(1);
    await db.execute(sql`update patients set first_name = 'Newname' where id = ${patient!.id}`);
    expect(await search('newname')).toBe(1);
    expect(await search('oldname')).toBe(0);
  });
});
