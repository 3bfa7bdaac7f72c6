// The read-only figures of part 1 §3 on the organization list and detail: scans_count (SCAN type),
// dynamic_positivity_percentage (one decimal, 0 without scans) and last_sync_date, from the statistics tables,
// following scans as they arrive, move and go; the list sorts by each.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPaginated } from '@sc/shared/list';
import type { TOrganization, TOrganizationListItem } from '@sc/shared/organizations';
import { organizations, scans } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const db = t.database.db;
let token = '';
let busy: OrganizationRow;
let quiet: OrganizationRow;
let idle: OrganizationRow;

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  token = await signIn(t, await createUser(t, { userType: 'ADMIN', password: null }));
  busy = await createOrganization(t, { name: 'Figures Busy' });
  quiet = await createOrganization(t, { name: 'Figures Quiet' });
  idle = await createOrganization(t, { name: 'Figures Idle' });
  await db.insert(scans).values([
    { organizationId: busy.id, localDbId: 'f1', dateTime: at('2026-01-01T10:00:00Z'), created: at('2026-01-02T10:00:00Z'), leftBreastFinding: ['Lump'] },
    { organizationId: busy.id, localDbId: 'f2', dateTime: at('2026-01-03T10:00:00Z'), created: at('2026-01-03T11:00:00Z') },
    { organizationId: busy.id, localDbId: 'f3', dateTime: at('2026-01-04T10:00:00Z'), created: at('2026-01-04T11:00:00Z') },
    // Practice scans are not counted, but they are syncs.
    { organizationId: busy.id, localDbId: 'f4', dateTime: at('2026-01-05T10:00:00Z'), created: at('2026-01-06T09:00:00Z'), scanType: 'PRACTICE', leftBreastFinding: ['Lump'] },
    { organizationId: quiet.id, localDbId: 'f5', dateTime: at('2026-01-02T10:00:00Z'), created: at('2026-01-02T10:30:00Z'), rightBreastFinding: ['Cyst'] },
  ]);
});

const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organization/?search=Figures&${query}`, headers: auth(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TPaginated<TOrganizationListItem>>();
};
const detail = async (id: number) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organization/${id}/`, headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json<TOrganization>();
};
const figures = (o: TOrganizationListItem) => [o.name, o.scans_count, o.dynamic_positivity_percentage, o.last_sync_date];

describe('organization figures', () => {
  it('shows scans, positivity with one decimal (0 without scans) and the last sync on the list and the detail', async () => {
    expect((await list('ordering=name')).results.map(figures)).toEqual([
      ['Figures Busy', 3, 33.3, '2026-01-06T09:00:00.000Z'],
      ['Figures Idle', 0, 0, null],
      ['Figures Quiet', 1, 100, '2026-01-02T10:30:00.000Z'],
    ]);
    expect(await detail(busy.id)).toMatchObject({ scans_count: 3, dynamic_positivity_percentage: 33.3, last_sync_date: '2026-01-06T09:00:00.000Z' });
  });

  it('sorts the list by scans_count, dynamic_positivity_percentage and last_sync_date', async () => {
    const names = async (ordering: string) => (await list(`ordering=${ordering}`)).results.map((o) => o.name);
    expect(await names('-scans_count')).toEqual(['Figures Busy', 'Figures Quiet', 'Figures Idle']);
    expect(await names('scans_count')).toEqual(['Figures Idle', 'Figures Quiet', 'Figures Busy']);
    expect(await names('-dynamic_positivity_percentage')).toEqual(['Figures Quiet', 'Figures Busy', 'Figures Idle']);
    // Never synced sorts as the oldest.
    expect(await names('-last_sync_date')).toEqual(['Figures Busy', 'Figures Quiet', 'Figures Idle']);
    expect(await names('last_sync_date')).toEqual(['Figures Idle', 'Figures Quiet', 'Figures Busy']);
  });

  it('follows a scan moved to another organization, and a device upload recorded on the organization', async () => {
    await db.update(scans).set({ organizationId: idle.id }).where(eq(scans.localDbId, 'f1'));
    expect((await detail(busy.id))).toMatchObject({ scans_count: 2, dynamic_positivity_percentage: 0 });
    expect((await detail(idle.id))).toMatchObject({ scans_count: 1, dynamic_positivity_percentage: 100, last_sync_date: '2026-01-02T10:00:00.000Z' });
    await db.update(organizations).set({ lastSyncDate: at('2026-02-01T00:00:00Z') }).where(eq(organizations.id, idle.id));
    expect((await detail(idle.id)).last_sync_date).toBe('2026-02-01T00:00:00.000Z');
    await db.delete(scans).where(eq(scans.localDbId, 'f5'));
    expect(await detail(quiet.id)).toMatchObject({ scans_count: 0, dynamic_positivity_percentage: 0, last_sync_date: null });
  });
});
