// Breast scans (part 2 §3 Scan). `is_positive` is a stored generated column (architecture §7: a finding on either
// side), so statistics filter on a plain boolean and nobody can forget to maintain it.
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { ASSESSMENT_RESULTS, SCAN_TYPES } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';
import { breastFindingColumns, examColumns, type StoredFile } from './exam-columns.ts';

export type ScanFilesPath = {
  reports?: StoredFile[];
  assessment_files?: StoredFile[];
  consent_form?: StoredFile[];
};

export type TrainingScanObservation = { practice_verified?: boolean | null; [key: string]: unknown };

export const scans = pgTable(
  'scans',
  {
    id: serial('id').primaryKey(),
    ...examColumns(),
    scanType: text('scan_type', { enum: SCAN_TYPES }).notNull().default('SCAN'),
    /** Set on duplicates: the first upload of the same (device serial, local_db_id) (architecture §7). */
    parentScanId: integer('parent_scan_id').references((): AnyPgColumn => scans.id, { onDelete: 'cascade' }),
    isReplayAvailable: boolean('is_replay_available').notNull().default(false),
    scanFilesPath: jsonb('scan_files_path').$type<ScanFilesPath>().notNull().default({}),
    assessmentResult: text('assessment_result', { enum: ASSESSMENT_RESULTS })
      .notNull()
      .default('NO_ASSESSMENT'),
    assessmentApproved: boolean('assessment_approved'),
    trainingScanObservation: jsonb('training_scan_observation')
      .$type<TrainingScanObservation>()
      .notNull()
      .default({}),
    ...breastFindingColumns(),
    notes: jsonb('notes').$type<{ message?: string | null }>().notNull().default({}),
    sendReportToPatient: boolean('send_report_to_patient').notNull().default(false),
    sentReportToPatient: boolean('sent_report_to_patient').notNull().default(false),
    nextAppointmentDate: date('next_appointment_date'),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    // Ascending indexes also serve ORDER BY date_time DESC (scanned backwards); a DESC NULLS LAST one would not.
    // An upload is identified by (device, local id); duplicates are children and may repeat it.
    uniqueIndex('scans_device_local_uq')
      .on(t.deviceSerialNumber, t.localDbId)
      .where(sql`${t.parentScanId} is null`),
    index('scans_org_date_idx').on(t.organizationId, t.dateTime),
    index('scans_technician_date_idx').on(t.technicianId, t.dateTime),
    index('scans_device_date_idx').on(t.deviceSerialNumber, t.dateTime),
    // Statistics (dashboard totals, leaderboards) read only this index: an index-only scan once vacuumed.
    index('scans_stats_idx').on(t.scanType, t.dateTime, t.organizationId, t.isPositive),
    index('scans_date_idx').on(t.dateTime),
    index('scans_created_idx').on(t.created),
    index('scans_parent_idx')
      .on(t.parentScanId)
      .where(sql`${t.parentScanId} is not null`),
    // A patient's scans, and the scans of the patients a search finds within a period (count without the table).
    index('scans_patient_date_idx').on(t.patientId, t.dateTime),
    index('scans_sensor_idx').on(t.sensorSerialNumber),
  ],
);
