import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_CSV_COLUMNS,
  DEVICE_CSV_TIME_COLUMNS,
  DEVICE_MESSAGES,
  type TDevice,
  type TDeviceLink,
} from '@sc/shared/devices';
import { csvHeader } from '@sc/shared/constants';
import type { TPaginated } from '@sc/shared/list';
import type { TUserType } from '@sc/shared/roles';
import { MESSAGES } from '@sc/shared/validation';
import { auditLog, devices, firmware, organizationDevices, reportLogs, scans } from '../../db/schema/index.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type OrganizationRow } from '../../test/factories.ts';

const t = await setupTestApp();
const DEVICE = '/api/v1/device/';
/** The device CSV's header as the reader in Asia/Kolkata (no Timezone header) gets it. */
const deviceHeader = csvHeader(DEVICE_CSV_COLUMNS, DEVICE_CSV_TIME_COLUMNS, 'Asia/Kolkata').join(',');
const LINK = '/api/v1/organization/device/';
const DAY = 86_400_000;
let seq = 0;

async function tokenFor(userType: TUserType, opts: { organizationId?: number | null; linkedOrganizationIds?: number[] } = {}) {
  const user = await createUser(t, { userType, password: null, ...opts });
  return signIn(t, user);
}

type DeviceOptions = {
  serial?: string;
  organization?: OrganizationRow | null;
  software?: string | null;
  lastSync?: Date | null;
  created?: Date;
  scans?: number;
};

/** A device, linked to `organization` when given (null: an unassigned active link; absent: never linked). */
async function addDevice(opts: DeviceOptions = {}) {
  const [device] = await t.database.db
    .insert(devices)
    .values({
      serialNumber: opts.serial ?? `DEV-${process.pid}-${++seq}`,
      softwareVersion: opts.software ?? null,
      lastSyncDate: opts.lastSync ?? null,
      created: opts.created ?? new Date(),
    })
    .returning();
  if (!device) throw new Error('device not created');
  let linkId: number | null = null;
  if (opts.organization !== undefined) {
    const [link] = await t.database.db
      .insert(organizationDevices)
      .values({ deviceId: device.id, organizationId: opts.organization?.id ?? null })
      .returning();
    linkId = link?.id ?? null;
  }
  for (let i = 0; i < (opts.scans ?? 0); i++) {
    await t.database.db.insert(scans).values({
      deviceSerialNumber: device.serialNumber,
      localDbId: `${device.id}-${i}`,
      dateTime: new Date(),
      scanType: 'SCAN',
    });
  }
  return { ...device, linkId };
}

const get = (token: string | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
const send = (token: string | null, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? auth(token) : {}, ...(payload ? { payload } : {}) });
const listOf = <T = TDevice>(res: { json: () => unknown }) => res.json() as TPaginated<T>;
const linksOf = async (deviceId: number) =>
  t.database.db.select().from(organizationDevices).where(eq(organizationDevices.deviceId, deviceId)).orderBy(organizationDevices.id);
const activeLinkOf = async (deviceId: number) =>
  (await t.database.db
    .select()
    .from(organizationDevices)
    .where(and(eq(organizationDevices.deviceId, deviceId), eq(organizationDevices.isActive, true))))[0];

beforeAll(async () => {
  await t.database.db.insert(firmware).values([
    { version: 'v2.9', path: 'firmware/v2_9.ibe' },
    { version: 'v2.14', path: 'firmware/v2_14.ibe' },
    { version: 'v2.10', path: 'firmware/v2_10.ibe' },
  ]);
});

describe('device/ and organization/device/ without a token', () => {
  it('answer 401 to every call, before looking at the body, and change nothing', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org });
    const calls = [
      get(null, DEVICE),
      get(null, `${DEVICE}?format=csv`),
      get(null, `${DEVICE}${device.id}/`),
      send(null, 'POST', DEVICE, { serial_number: '' }),
      send(null, 'PUT', `${DEVICE}${device.id}/`, { serial_number: 'X' }),
      get(null, LINK),
      get(null, `${LINK}${device.linkId}/`),
      send(null, 'POST', LINK, { organization: 'x' }),
      send(null, 'PATCH', `${LINK}${device.linkId}/`, { organization: null }),
      send(null, 'DELETE', `${LINK}${device.linkId}/`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.notProvided });
    }
    expect((await activeLinkOf(device.id))?.organizationId).toBe(org.id);
  });
});

describe('GET device/', () => {
  it('answers the list envelope and count with the §3 fields, the organization name and the scan count', async () => {
    const org = await createOrganization(t, { name: 'Envelope Clinic' });
    const prefix = `ENV${++seq}X`;
    for (let i = 0; i < 3; i++) await addDevice({ serial: `${prefix}${i}`, organization: org, scans: i });
    const admin = await tokenFor('ADMIN');

    const res = await get(admin, `${DEVICE}?search=${prefix}&limit=2&ordering=serial_number`);
    expect(res.statusCode).toBe(200);
    const body = listOf(res);
    expect(body.count).toBe(3);
    expect(body.previous).toBeNull();
    expect(body.next).toContain('page=2');
    expect(body.results.map((d) => d.serial_number)).toEqual([`${prefix}0`, `${prefix}1`]);
    expect(body.results[1]).toEqual({
      id: expect.any(Number),
      serial_number: `${prefix}1`,
      name: null,
      scan_count: 1,
      last_sync_date: null,
      created: expect.any(String),
      organization: org.id,
      organization_name: 'Envelope Clinic',
      organization_device_id: expect.any(Number),
      hardware_version: null,
      software_version: null,
      latest_firmware: 'v2.14',
      is_firmware_outdated: null,
      is_silent: false,
    });
  });

  it('filters linked, un-linked and one organization, and looks a device up by serial number in any case', async () => {
    const org = await createOrganization(t);
    const prefix = `FLT${++seq}X`;
    const linked = await addDevice({ serial: `${prefix}LINKED`, organization: org });
    const unassigned = await addDevice({ serial: `${prefix}UNASSIGNED`, organization: null });
    const never = await addDevice({ serial: `${prefix}NEVER` });
    const admin = await tokenFor('SUB_ADMIN');
    const ids = async (query: string) => listOf(await get(admin, `${DEVICE}?search=${prefix}&ordering=id${query}`)).results.map((d) => d.id);

    expect(await ids('')).toEqual([linked.id, unassigned.id, never.id]);
    expect(await ids('&linked=true')).toEqual([linked.id]);
    expect(await ids('&unlinked=true')).toEqual([unassigned.id, never.id]);
    expect(await ids(`&organization_id=${org.id}`)).toEqual([linked.id]);

    const lookup = listOf(await get(admin, `${DEVICE}?serial_number=${prefix.toLowerCase()}linked&using_read_db=true`));
    expect(lookup.count).toBe(1);
    expect(lookup.results[0]?.id).toBe(linked.id);
    // A lookup is an exact match: a part of the serial finds nothing, and % is not a wildcard.
    expect(listOf(await get(admin, `${DEVICE}?serial_number=${prefix}`)).count).toBe(0);
    expect(listOf(await get(admin, `${DEVICE}?serial_number=${prefix}%25`)).count).toBe(0);
  });

  it('filters by the creation date with the six time tabs’ parameters', async () => {
    const org = await createOrganization(t);
    const prefix = `PER${++seq}X`;
    const old = await addDevice({ serial: `${prefix}OLD`, organization: org, created: new Date(Date.now() - 90 * DAY) });
    const fresh = await addDevice({ serial: `${prefix}NEW`, organization: org });
    const admin = await tokenFor('ADMIN');
    const ids = async (query: string) => listOf(await get(admin, `${DEVICE}?search=${prefix}&ordering=id${query}`)).results.map((d) => d.id);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

    expect(await ids('&day=today')).toEqual([fresh.id]);
    expect(await ids('&month=this_month')).toContain(fresh.id);
    expect(await ids(`&date_time_after=${day(Date.now() - 100 * DAY)}&date_time_before=${day(Date.now() - 80 * DAY)}`)).toEqual([old.id]);
    const bad = await get(admin, `${DEVICE}?date_time_after=2024-02-30`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('date_time_after');
  });

  it('refuses an ordering field that is not whitelisted and a bad boolean, with the field named', async () => {
    const admin = await tokenFor('ADMIN');
    const ordering = await get(admin, `${DEVICE}?ordering=password`);
    expect(ordering.statusCode).toBe(400);
    expect(ordering.json()).toEqual({ ordering: ['Invalid ordering field: password.'] });
    const linked = await get(admin, `${DEVICE}?linked=maybe`);
    expect(linked.statusCode).toBe(400);
    expect(linked.json()).toHaveProperty('linked');
  });

  it('sorts by scan count and by organization name', async () => {
    const a = await createOrganization(t, { name: 'Aardvark Clinic' });
    const z = await createOrganization(t, { name: 'Zebra Clinic' });
    const prefix = `ORD${++seq}X`;
    const many = await addDevice({ serial: `${prefix}1`, organization: z, scans: 3 });
    const few = await addDevice({ serial: `${prefix}2`, organization: a, scans: 1 });
    const admin = await tokenFor('ADMIN');
    const ids = async (ordering: string) =>
      listOf(await get(admin, `${DEVICE}?search=${prefix}&ordering=${ordering}`)).results.map((d) => d.id);
    expect(await ids('-scan_count')).toEqual([many.id, few.id]);
    expect(await ids('organization_name')).toEqual([few.id, many.id]);
  });
});

describe('fleet health', () => {
  it('compares the firmware as versions (v2.9 < v2.14) against the latest on record', async () => {
    const org = await createOrganization(t);
    const prefix = `FW${++seq}X`;
    const old = await addDevice({ serial: `${prefix}A`, organization: org, software: 'v2.9' });
    const current = await addDevice({ serial: `${prefix}B`, organization: org, software: '2.14.0' });
    const newer = await addDevice({ serial: `${prefix}C`, organization: org, software: 'v3.0' });
    const unknown = await addDevice({ serial: `${prefix}D`, organization: org, software: 'beta' });
    const admin = await tokenFor('ADMIN');
    const results = listOf(await get(admin, `${DEVICE}?search=${prefix}`)).results;
    const outdated = (id: number) => results.find((d) => d.id === id)?.is_firmware_outdated;
    expect(outdated(old.id)).toBe(true);
    expect(outdated(current.id)).toBe(false);
    expect(outdated(newer.id)).toBe(false);
    expect(outdated(unknown.id)).toBeNull();
  });

  it('marks and filters devices silent for more than 30 days (a device that never uploaded counts from its registration)', async () => {
    const org = await createOrganization(t);
    const prefix = `SIL${++seq}X`;
    const recent = await addDevice({ serial: `${prefix}A`, organization: org, lastSync: new Date(Date.now() - 2 * DAY) });
    const quiet = await addDevice({ serial: `${prefix}B`, organization: org, lastSync: new Date(Date.now() - 45 * DAY) });
    const neverOld = await addDevice({ serial: `${prefix}C`, organization: org, created: new Date(Date.now() - 40 * DAY) });
    const neverNew = await addDevice({ serial: `${prefix}D`, organization: org });
    const admin = await tokenFor('ADMIN');
    const list = async (query: string) => listOf(await get(admin, `${DEVICE}?search=${prefix}&ordering=id${query}`)).results;

    expect((await list('&silent=true')).map((d) => d.id)).toEqual([quiet.id, neverOld.id]);
    expect((await list('&silent=false')).map((d) => d.id)).toEqual([recent.id, neverNew.id]);
    expect((await list('')).map((d) => d.is_silent)).toEqual([false, true, true, false]);
  });
});

describe('device scope', () => {
  it('does not show an ORG_ADMIN a device of another organization, nor an unlinked one', async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const own = await addDevice({ organization: mine });
    const other = await addDevice({ organization: theirs });
    const loose = await addDevice({ organization: null });
    const token = await tokenFor('ORG_ADMIN', { organizationId: mine.id });

    const all = listOf(await get(token, DEVICE));
    expect(all.results.map((d) => d.id)).toEqual([own.id]);
    expect(all.count).toBe(1);
    expect(listOf(await get(token, `${DEVICE}?organization_id=${theirs.id}`)).count).toBe(0);
    expect((await get(token, `${DEVICE}${own.id}/`)).statusCode).toBe(200);
    for (const id of [other.id, loose.id, 999_999]) {
      const res = await get(token, `${DEVICE}${id}/`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
    expect((await get(token, `${LINK}${other.linkId}/`)).statusCode).toBe(404);
  });

  it('shows a DISTRIBUTOR_ADMIN its tree but no unlinked device, and a MANAGER its organizations plus the unlinked ones', async () => {
    const distributor = await createOrganization(t, { canCreateOrganization: true });
    const child = await createOrganization(t, { parentId: distributor.id });
    const outside = await createOrganization(t);
    const inChild = await addDevice({ organization: child });
    const elsewhere = await addDevice({ organization: outside });
    const loose = await addDevice({ organization: null });

    const dist = listOf(await get(await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: distributor.id }), `${DEVICE}?limit=1000`));
    expect(dist.results.map((d) => d.id)).toEqual([inChild.id]);

    const manager = listOf(await get(await tokenFor('MANAGER', { linkedOrganizationIds: [child.id] }), `${DEVICE}?limit=1000`));
    const seen = manager.results.map((d) => d.id);
    expect(seen).toContain(inChild.id);
    expect(seen).toContain(loose.id);
    expect(seen).not.toContain(elsewhere.id);
    expect(manager.results.every((d) => d.organization === null || d.organization === child.id)).toBe(true);
  });

  it('refuses the roles without devices: a CERVAICAL_REVIEWER and a TECHNICIAN get 403', async () => {
    const org = await createOrganization(t);
    for (const type of ['CERVAICAL_REVIEWER', 'TECHNICIAN'] as const) {
      const token = await tokenFor(type, { organizationId: org.id });
      for (const url of [DEVICE, LINK]) {
        const res = await get(token, url);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: AUTH_ERRORS.forbidden });
      }
    }
  });
});

describe('POST device/ and PUT device/{id}/', () => {
  it('creates an unlinked device with the §8 message and writes the audit log', async () => {
    const serial = `NEW${++seq}-${process.pid}`;
    const res = await send(await tokenFor('MANAGER'), 'POST', DEVICE, { serial_number: `  ${serial} ` });
    expect(res.statusCode).toBe(201);
    const body = res.json<TDevice & { detail: string }>();
    expect(body).toMatchObject({ serial_number: serial, organization: null, scan_count: 0, detail: DEVICE_MESSAGES.created });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'device.created'));
    expect(audit.some((a) => a.targetId === String(body.id))).toBe(true);
  });

  it('requires a serial number and refuses a duplicate in any case, storing nothing', async () => {
    const existing = await addDevice({ serial: `DUP${++seq}ABC` });
    const admin = await tokenFor('ADMIN');
    const before = (await t.database.db.select().from(devices)).length;
    const cases: [object, Record<string, string[]>][] = [
      [{}, { serial_number: [MESSAGES.required] }],
      [{ serial_number: '   ' }, { serial_number: [MESSAGES.required] }],
      [{ serial_number: 42 }, { serial_number: [MESSAGES.required] }],
      [{ serial_number: existing.serialNumber.toLowerCase() }, { serial_number: [DEVICE_MESSAGES.duplicateSerial] }],
      [{ serial_number: 'A'.repeat(65) }, { serial_number: [DEVICE_MESSAGES.serialTooLong] }],
      [{ serial_number: 'IBE<script>' }, { serial_number: [DEVICE_MESSAGES.serialText] }],
      [{ serial_number: 'IBE\n2' }, { serial_number: ['Line breaks are not allowed in this field.'] }],
    ];
    for (const [payload, errors] of cases) {
      const res = await send(admin, 'POST', DEVICE, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual(errors);
    }
    expect((await t.database.db.select().from(devices)).length).toBe(before);
  });

  it('lets only ADMIN, SUB_ADMIN and MANAGER create', async () => {
    const org = await createOrganization(t);
    for (const type of ['DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] as const) {
      const res = await send(await tokenFor(type, { organizationId: org.id }), 'POST', DEVICE, { serial_number: '' });
      expect(res.statusCode).toBe(403);
    }
    expect((await send(await tokenFor('SUB_ADMIN'), 'POST', DEVICE, { serial_number: `SUB${++seq}P${process.pid}` })).statusCode).toBe(201);
  });

  it('lets only ADMIN edit the serial number, with the §8 message', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org });
    const other = await addDevice();
    for (const type of ['SUB_ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] as const) {
      const token = await tokenFor(type, { organizationId: org.id, linkedOrganizationIds: [org.id] });
      expect((await send(token, 'PUT', `${DEVICE}${device.id}/`, { serial_number: 'X1' })).statusCode).toBe(403);
    }
    const admin = await tokenFor('ADMIN');
    const dup = await send(admin, 'PUT', `${DEVICE}${device.id}/`, { serial_number: other.serialNumber });
    expect(dup.json()).toEqual({ serial_number: [DEVICE_MESSAGES.duplicateSerial] });
    // Its own serial is not a duplicate of itself.
    expect((await send(admin, 'PUT', `${DEVICE}${device.id}/`, { serial_number: device.serialNumber })).statusCode).toBe(200);
    const renamed = `REN${++seq}-${process.pid}`;
    const res = await send(admin, 'PUT', `${DEVICE}${device.id}/`, { serial_number: renamed });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: device.id, serial_number: renamed, organization: org.id, detail: DEVICE_MESSAGES.updated });
    expect((await send(admin, 'PUT', `${DEVICE}999999/`, { serial_number: 'X2' })).statusCode).toBe(404);
    expect((await send(admin, 'PUT', `${DEVICE}abc/`, { serial_number: 'X2' })).statusCode).toBe(404);
  });
});

describe('linking, transferring and unassigning', () => {
  it('links an unlinked device (Device Link Successfully), then refuses to link it again', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: null });
    const admin = await tokenFor('ADMIN');
    const res = await send(admin, 'POST', LINK, { organization: org.id, device: device.id });
    expect(res.statusCode).toBe(201);
    const body = res.json<TDeviceLink & { detail: string }>();
    expect(body).toMatchObject({
      organization: org.id,
      organization_name: org.name,
      is_active: true,
      detail: DEVICE_MESSAGES.linked,
      device_data: { id: device.id, serial_number: device.serialNumber, organization: org.id },
    });
    // The unassigned link is history now; one active link.
    const links = await linksOf(device.id);
    expect(links.map((l) => [l.organizationId, l.isActive])).toEqual([
      [null, false],
      [org.id, true],
    ]);
    const again = await send(admin, 'POST', LINK, { organization: org.id, device: device.id });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ device: [DEVICE_MESSAGES.alreadyLinked] });
  });

  it('requires the organization and the device, and names an unknown one', async () => {
    const device = await addDevice();
    const admin = await tokenFor('ADMIN');
    const missing = await send(admin, 'POST', LINK, { device: device.id });
    expect(missing.json()).toEqual({ organization: [MESSAGES.required] });
    const unknown = await send(admin, 'POST', LINK, { organization: 999_999, device: device.id });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ organization: ['Invalid pk "999999" - object does not exist.'] });
    const noDevice = await send(admin, 'POST', LINK, { organization: 1, device: 999_999 });
    expect(noDevice.json()).toEqual({ device: ['Invalid pk "999999" - object does not exist.'] });
    expect(await linksOf(device.id)).toEqual([]);
  });

  it('lets a MANAGER link only to its own organizations, and refuses DISTRIBUTOR_ADMIN and ORG_ADMIN', async () => {
    const mine = await createOrganization(t);
    const theirs = await createOrganization(t);
    const device = await addDevice();
    const manager = await tokenFor('MANAGER', { linkedOrganizationIds: [mine.id] });
    const outside = await send(manager, 'POST', LINK, { organization: theirs.id, device: device.id });
    expect(outside.json()).toEqual({ organization: [`Invalid pk "${theirs.id}" - object does not exist.`] });
    for (const type of ['DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] as const) {
      const res = await send(await tokenFor(type, { organizationId: mine.id }), 'POST', LINK, { organization: mine.id, device: device.id });
      expect(res.statusCode).toBe(403);
    }
    expect((await send(manager, 'POST', LINK, { organization: mine.id, device: device.id })).statusCode).toBe(201);
  });

  it('transfers by ending the active link and opening a new one, so the history stays', async () => {
    const from = await createOrganization(t);
    const to = await createOrganization(t);
    const device = await addDevice({ organization: from });
    const res = await send(await tokenFor('SUB_ADMIN'), 'PATCH', `${LINK}${device.linkId}/`, { organization: to.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ organization: to.id, is_active: true, detail: DEVICE_MESSAGES.linked });
    const links = await linksOf(device.id);
    expect(links.map((l) => [l.organizationId, l.isActive, l.endedAt !== null])).toEqual([
      [from.id, false, true],
      [to.id, true, false],
    ]);
    // The ended link is still readable, and can no longer be changed.
    const old = await get(await tokenFor('ADMIN'), `${LINK}${device.linkId}/`);
    expect(old.json()).toMatchObject({ id: device.linkId, organization: from.id, is_active: false });
    const stale = await send(await tokenFor('ADMIN'), 'PATCH', `${LINK}${device.linkId}/`, { organization: from.id });
    expect(stale.json()).toEqual({ non_field_errors: [DEVICE_MESSAGES.linkEnded] });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'device.transferred'));
    expect(audit.some((a) => a.targetId === String(device.id) && a.details.to === to.id)).toBe(true);
  });

  it('lets a DISTRIBUTOR_ADMIN transfer within its tree but not unassign, nor reach a device outside it', async () => {
    const distributor = await createOrganization(t, { canCreateOrganization: true });
    const a = await createOrganization(t, { parentId: distributor.id });
    const b = await createOrganization(t, { parentId: distributor.id });
    const outside = await createOrganization(t);
    const device = await addDevice({ organization: a });
    const foreign = await addDevice({ organization: outside });
    const token = await tokenFor('DISTRIBUTOR_ADMIN', { organizationId: distributor.id });

    expect((await send(token, 'PATCH', `${LINK}${device.linkId}/`, { organization: null })).statusCode).toBe(403);
    expect((await send(token, 'DELETE', `${LINK}${device.linkId}/`)).statusCode).toBe(403);
    const away = await send(token, 'PATCH', `${LINK}${device.linkId}/`, { organization: outside.id });
    expect(away.json()).toEqual({ organization: [`Invalid pk "${outside.id}" - object does not exist.`] });
    const notMine = await send(token, 'PATCH', `${LINK}${foreign.linkId}/`, { organization: b.id });
    expect(notMine.statusCode).toBe(404);
    const same = await send(token, 'PATCH', `${LINK}${device.linkId}/`, { organization: a.id });
    expect(same.json()).toEqual({ organization: [DEVICE_MESSAGES.sameOrganization] });
    const moved = await send(token, 'PATCH', `${LINK}${device.linkId}/`, { organization: b.id });
    expect(moved.statusCode).toBe(200);
    expect((await activeLinkOf(device.id))?.organizationId).toBe(b.id);
    expect((await activeLinkOf(foreign.id))?.organizationId).toBe(outside.id);
  });

  it('refuses an ORG_ADMIN every link change', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org });
    const token = await tokenFor('ORG_ADMIN', { organizationId: org.id });
    for (const payload of [{ organization: null }, { organization: org.id }]) {
      expect((await send(token, 'PATCH', `${LINK}${device.linkId}/`, payload)).statusCode).toBe(403);
    }
  });

  it('unassigns with {organization: null} (Device unassigned Successfully); the device is unlinked and keeps its scans', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org, scans: 2 });
    const admin = await tokenFor('MANAGER', { linkedOrganizationIds: [org.id] });
    const res = await send(admin, 'PATCH', `${LINK}${device.linkId}/`, { organization: null });
    expect(res.statusCode).toBe(200);
    const body = res.json<TDeviceLink & { detail: string }>();
    expect(body).toMatchObject({ organization: null, detail: DEVICE_MESSAGES.unassigned, device_data: { scan_count: 2 } });
    const now = (await get(admin, `${DEVICE}${device.id}/`)).json<TDevice>();
    expect(now).toMatchObject({ organization: null, organization_device_id: body.id, scan_count: 2 });
    const again = await send(admin, 'PATCH', `${LINK}${body.id}/`, { organization: null });
    expect(again.json()).toEqual({ non_field_errors: [DEVICE_MESSAGES.notLinked] });
    // An unassigned link is linked again through the same call (a Link, not a Transfer).
    const relinked = await send(admin, 'PATCH', `${LINK}${body.id}/`, { organization: org.id });
    expect(relinked.json()).toMatchObject({ organization: org.id, detail: DEVICE_MESSAGES.linked });
    expect((await linksOf(device.id)).length).toBe(3);
  });

  it('refuses a bad PATCH body with the field named, changing nothing', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org });
    const admin = await tokenFor('ADMIN');
    for (const payload of [{}, { organization: 'abc' }, { organization: -1 }]) {
      const res = await send(admin, 'PATCH', `${LINK}${device.linkId}/`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('organization');
    }
    expect((await linksOf(device.id)).length).toBe(1);
  });

  it('DELETE ends the active link (history kept) and the device becomes unlinked', async () => {
    const org = await createOrganization(t);
    const device = await addDevice({ organization: org });
    const admin = await tokenFor('ADMIN');
    const res = await send(admin, 'DELETE', `${LINK}${device.linkId}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: DEVICE_MESSAGES.linkDeleted });
    expect((await linksOf(device.id)).map((l) => l.isActive)).toEqual([false]);
    expect((await get(admin, `${DEVICE}${device.id}/`)).json()).toMatchObject({ organization: null, organization_device_id: null });
    expect((await send(admin, 'DELETE', `${LINK}999999/`)).statusCode).toBe(404);
  });
});

describe('GET organization/device/', () => {
  it('lists the active links with device_data, under the same filters and scope', async () => {
    const org = await createOrganization(t);
    const other = await createOrganization(t);
    const a = await addDevice({ organization: org, scans: 1 });
    await addDevice({ organization: other });
    await addDevice();
    const token = await tokenFor('ORG_ADMIN', { organizationId: org.id });
    const body = listOf<TDeviceLink>(await get(token, `${LINK}?organization_id=${org.id}`));
    expect(body.count).toBe(1);
    expect(body.results[0]).toMatchObject({
      id: a.linkId,
      organization: org.id,
      is_active: true,
      device_data: { id: a.id, serial_number: a.serialNumber, scan_count: 1, organization: org.id },
    });
    const one = await get(token, `${LINK}${a.linkId}/?organization_id=${org.id}`);
    expect(one.statusCode).toBe(200);
    expect((await get(token, `${LINK}${a.linkId}/?organization_id=${other.id}`)).statusCode).toBe(404);
  });
});

describe('GET device/?format=csv', () => {
  it('streams device_details.csv with the header and exactly the rows of the list (more than one page)', async () => {
    const org = await createOrganization(t, { name: '=HYPERLINK("x")' });
    const prefix = `CSV${++seq}X`;
    for (let i = 0; i < 23; i++) await addDevice({ serial: `${prefix}${String(i).padStart(2, '0')}`, organization: org, scans: i === 0 ? 2 : 0 });
    await addDevice({ serial: `${prefix}LOOSE` });
    const admin = await tokenFor('SUB_ADMIN');
    const query = `search=${prefix}&linked=true&limit=10`;

    const list = listOf(await get(admin, `${DEVICE}?${query}`));
    expect(list.count).toBe(23);
    expect(list.results).toHaveLength(10);

    const res = await get(admin, `${DEVICE}?${query}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=device_details_\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe(`\uFEFF${deviceHeader}`);
    expect(lines).toHaveLength(1 + list.count);
    const first = lines.find((l) => l.startsWith(`${prefix}00,`));
    // The organization name starting with = is written as text, not a formula.
    expect(first).toContain(`"'=HYPERLINK(""x"")",2,`);

    const logged = await t.database.db.select().from(reportLogs).where(eq(reportLogs.api, '/api/v1/device/'));
    expect(logged.some((r) => r.apiQp.search === prefix && r.userType === 'SUB_ADMIN')).toBe(true);
  });

  it('writes the header alone when nothing matches', async () => {
    const res = await get(await tokenFor('ADMIN'), `${DEVICE}?search=NOTHING-MATCHES-${process.pid}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.body.trimEnd()).toBe(`\uFEFF${deviceHeader}`);
  });

  it('is refused to MANAGER, DISTRIBUTOR_ADMIN and ORG_ADMIN, and a bad filter is a 400', async () => {
    const org = await createOrganization(t);
    for (const type of ['MANAGER', 'DISTRIBUTOR_ADMIN', 'ORG_ADMIN'] as const) {
      const token = await tokenFor(type, { organizationId: org.id, linkedOrganizationIds: [org.id] });
      const res = await get(token, `${DEVICE}?format=csv`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: AUTH_ERRORS.forbidden });
    }
    const bad = await get(await tokenFor('ADMIN'), `${DEVICE}?format=xlsx`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('format');
  });
});
