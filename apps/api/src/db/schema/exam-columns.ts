// Columns every uploaded examination shares (breast scan, cervical exam, ORCA exam): who, where, which device.
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';
import { patients } from './patients.ts';

export type StoredFile = { path: string };

/** metadata.device of part 2 §3 / part 3 §3: the tablet the app ran on. */
export type ExamMetadata = {
  device?: { device_model?: string | null; manufacturer?: string | null; os_version?: string | null };
  [key: string]: unknown;
};

export const examColumns = () => ({
  // Deleting a patient deletes their examinations (the spec's confirm: pending reports won't be uploaded).
  patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
  organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  technicianId: integer('technician_id').references(() => users.id, { onDelete: 'set null' }),
  deviceSerialNumber: text('device_serial_number'),
  sensorSerialNumber: text('sensor_serial_number'),
  tabletSerialNumber: text('tablet_serial_number'),
  hardwareVersion: text('hardware_version'),
  softwareVersion: text('software_version'),
  /** Exam time on the device; `created` is when the server received it ("Synced On"). */
  dateTime: timestamp('date_time', { withTimezone: true }).notNull(),
  isSurvivor: boolean('is_survivor').notNull().default(false),
  hasFamilyHistory: boolean('has_family_history').notNull().default(false),
  hasSymptoms: boolean('has_symptoms').notNull().default(false),
  underBust: doublePrecision('under_bust'),
  overBust: doublePrecision('over_bust'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  /** The record's id in the device's local database; with the device serial it identifies an upload. */
  localDbId: text('local_db_id'),
  metadata: jsonb('metadata').$type<ExamMetadata>().notNull().default({}),
});

/**
 * Breast findings of a breast scan (and of the cervical row, which repeats them, part 3 §3). A scan is positive
 * when its left or right finding list is not empty (architecture §7): a generated column, never written.
 */
export const breastFindingColumns = () => ({
  /** 1 Small, 2 Medium, 3 Large. */
  breastType: integer('breast_type'),
  leftBreastFinding: text('left_breast_finding')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  rightBreastFinding: text('right_breast_finding')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  isPositive: boolean('is_positive').generatedAlwaysAs(
    sql`(cardinality(left_breast_finding) > 0 OR cardinality(right_breast_finding) > 0)`,
  ),
});
