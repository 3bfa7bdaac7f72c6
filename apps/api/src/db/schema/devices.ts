// Devices (part 2 §3) and their links to organizations. A link row is never rewritten to another
// organization: a transfer ends the active link and opens a new one, so the history stays.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { byUser, createdModified } from './columns.ts';
import { organizations } from './organizations.ts';

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    serialNumber: text('serial_number').notNull(),
    name: text('name'),
    hardwareVersion: text('hardware_version'),
    softwareVersion: text('software_version'),
    /** Last upload from the device; set by the device API. */
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('devices_serial_number_uq').on(t.serialNumber),
    index('devices_created_idx').on(t.created),
    index('devices_serial_trgm_idx').using('gin', t.serialNumber.op('gin_trgm_ops')),
  ],
);

/**
 * Organization–device links. `organization_id` null on the active link means "unassigned"
 * (PATCH {organization: null}); `is_active` false rows are history (ended by a transfer or unlink).
 */
export const organizationDevices = pgTable(
  'organization_devices',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    // One active link per device.
    uniqueIndex('organization_devices_active_uq')
      .on(t.deviceId)
      .where(sql`${t.isActive}`),
    index('organization_devices_org_idx')
      .on(t.organizationId)
      .where(sql`${t.isActive}`),
    index('organization_devices_device_idx').on(t.deviceId, t.created),
  ],
);
