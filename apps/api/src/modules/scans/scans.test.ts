import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devices, organizations, scans, webhookDeliveries } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { createOrganization } from '../../test/factories.ts';
import { scanInput } from './scans.fixtures.ts';
import { createScan, isSameScanContent } from './scans.service.ts';

const t = await setupTestApp();
const ctx = t.app.ctx;
const { db } = ctx.database;

const deliveriesOf = (scanId: number) =>
  db.select().from(webhookDeliveries).where(eq(webhookDeliveries.scanId, scanId));

describe('createScan: positive scans (architecture §7)', () => {
  it.each([
    ['a left finding', { leftBreastFinding: ['mass'] }, true],
    ['a right finding', { rightBreastFinding: ['cyst', 'asymmetry'] }, true],
    ['findings on both sides', { leftBreastFinding: ['a'], rightBreastFinding: ['b'] }, true],
    ['no finding', {}, false],
  ])('is positive with %s: %s', async (_label, findings, expected) => {
    const org = await createOrganization(t);
    const { scan, created } = await createScan(ctx, scanInput({ organizationId: org.id, ...findings }));
    expect(created).toBe(true);
    expect(scan.isPositive).toBe(expected);
  });
});

describe('createScan: duplicates (architecture §7)', () => {
  it('returns the stored scan when the same device and local id are uploaded again with identical content', async () => {
    const org = await createOrganization(t);
    const input = scanInput({
      organizationId: org.id,
      leftBreastFinding: ['x'],
      metadata: { device: { os_version: '14', manufacturer: 'A' } },
    });
    const first = await createScan(ctx, input);
    // Same content, keys in another order and the date as a new object: still identical.
    const again = await createScan(ctx, {
      ...input,
      dateTime: new Date(input.dateTime.getTime()),
      metadata: { device: { manufacturer: 'A', os_version: '14' } },
    });
    expect(again).toMatchObject({ created: false, scan: { id: first.scan.id } });
    const rows = await db
      .select()
      .from(scans)
      .where(eq(scans.localDbId, input.localDbId ?? ''));
    expect(rows).toHaveLength(1);
  });

  it('treats an omitted field and its stored default as the same content', async () => {
    const input = scanInput();
    const first = await createScan(ctx, input);
    const { scanType: _omitType, leftBreastFinding: _omitLeft, ...rest } = input;
    const again = await createScan(ctx, { ...rest, dateTime: input.dateTime });
    expect(again.created).toBe(false);
    expect(again.scan.id).toBe(first.scan.id);
  });

  it('stores different content under the same key as a child of the first upload', async () => {
    const input = scanInput({ rightBreastFinding: [] });
    const first = await createScan(ctx, input);
    const changed = await createScan(ctx, { ...input, rightBreastFinding: ['new finding'] });
    expect(changed.created).toBe(true);
    expect(changed.scan.id).not.toBe(first.scan.id);
    expect(changed.scan.parentScanId).toBe(first.scan.id);
    expect(changed.scan.isPositive).toBe(true);

    // The changed content again: the stored child is returned; a third version is another child of the original.
    const repeat = await createScan(ctx, { ...input, rightBreastFinding: ['new finding'] });
    expect(repeat).toMatchObject({ created: false, scan: { id: changed.scan.id } });
    const third = await createScan(ctx, { ...input, notes: { message: 'rescanned' } });
    expect(third.scan.parentScanId).toBe(first.scan.id);
    // And the original content still answers with the original.
    expect((await createScan(ctx, input)).scan.id).toBe(first.scan.id);
  });

  it('always stores a new scan when the upload has no local id', async () => {
    const input = scanInput({ localDbId: null });
    const a = await createScan(ctx, input);
    const b = await createScan(ctx, input);
    expect(a.scan.id).not.toBe(b.scan.id);
    expect(b.scan.parentScanId).toBeNull();
  });

  it('keeps uploads of the same local id from two devices apart', async () => {
    const a = await createScan(ctx, scanInput({ deviceSerialNumber: 'DEV-A', localDbId: 'same-1' }));
    const b = await createScan(ctx, scanInput({ deviceSerialNumber: 'DEV-B', localDbId: 'same-1' }));
    expect(b.created).toBe(true);
    expect(b.scan.parentScanId).toBeNull();
    expect(a.scan.id).not.toBe(b.scan.id);
  });

  it('compares content field by field', () => {
    const input = scanInput({ underBust: 80 });
    const stored = { ...input, id: 1, parentScanId: null } as unknown as Parameters<
      typeof isSameScanContent
    >[0];
    expect(isSameScanContent(stored, input)).toBe(true);
    expect(isSameScanContent(stored, { ...input, underBust: 81 })).toBe(false);
  });
});

describe('createScan: last sync date', () => {
  it("sets the organization's and the device's last sync date to the upload time", async () => {
    const org = await createOrganization(t);
    const [device] = await db
      .insert(devices)
      .values({ serialNumber: `SYNC-${process.pid}` })
      .returning();
    const at = new Date('2026-04-02T08:30:00.000Z');
    await createScan(
      { ...ctx, now: () => at },
      scanInput({ organizationId: org.id, deviceSerialNumber: device!.serialNumber }),
    );
    const [o] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    const [d] = await db.select().from(devices).where(eq(devices.id, device!.id));
    expect(o?.lastSyncDate?.toISOString()).toBe('2026-04-02T08:30:00.000Z');
    expect(d?.lastSyncDate?.toISOString()).toBe('2026-04-02T08:30:00.000Z');
  });
});

describe('createScan: webhooks', () => {
  const url = 'https://hooks.example.com/scans';

  it('logs a pending delivery for a new SCAN of an organization with its webhook on', async () => {
    const org = await createOrganization(t, {
      webhookSwitch: true,
      webhookUrl: url,
      webhookAuthToken: 'tok-abcdef123456',
    });
    const result = await createScan(ctx, scanInput({ organizationId: org.id }));
    const rows = await deliveriesOf(result.scan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ organizationId: org.id, url, status: 'pending', attempts: 0 });
    expect(result.webhookDeliveryId).toBe(rows[0]?.id);
  });

  it.each(['TRAINING', 'PRACTICE', 'PRE_TRAINING'] as const)(
    'does not send a %s scan (internal work)',
    async (scanType) => {
      const org = await createOrganization(t, { webhookSwitch: true, webhookUrl: url });
      const { scan, webhookDeliveryId } = await createScan(
        ctx,
        scanInput({ organizationId: org.id, scanType }),
      );
      expect(webhookDeliveryId).toBeNull();
      expect(await deliveriesOf(scan.id)).toHaveLength(0);
    },
  );

  it('does not send when the switch is off or no URL is saved', async () => {
    const off = await createOrganization(t, { webhookSwitch: false, webhookUrl: url });
    const noUrl = await createOrganization(t, { webhookSwitch: true, webhookUrl: null });
    for (const org of [off, noUrl]) {
      const { scan } = await createScan(ctx, scanInput({ organizationId: org.id }));
      expect(await deliveriesOf(scan.id)).toHaveLength(0);
    }
  });

  it('does not send an identical re-upload again, but sends a changed duplicate', async () => {
    const org = await createOrganization(t, { webhookSwitch: true, webhookUrl: url });
    const input = scanInput({ organizationId: org.id });
    const first = await createScan(ctx, input);
    const again = await createScan(ctx, input);
    expect(again.webhookDeliveryId).toBeNull();
    expect(await deliveriesOf(first.scan.id)).toHaveLength(1);
    const child = await createScan(ctx, { ...input, leftBreastFinding: ['late finding'] });
    expect(await deliveriesOf(child.scan.id)).toHaveLength(1);
  });
});
