// ORCA (oral cancer screening) exams, their case history (one row per exam) and findings (part 3 §3).
import {
  index,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ORCA_EXAMS, TOBACCO_FREQUENCIES } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';
import { examColumns, type StoredFile } from './exam-columns.ts';
import { licences } from './licences.ts';

export type OrcaFilePath = { reports?: StoredFile[]; consent_form?: StoredFile[] };

export const orcaExams = pgTable(
  'orca_exams',
  {
    id: serial('id').primaryKey(),
    ...examColumns(),
    licenseId: integer('license_id').references(() => licences.id, { onDelete: 'set null' }),
    /** The licence key the app used, kept as sent even if the licence is later removed. */
    licenceCode: text('licence_code'),
    /** The licence's report counter when this exam's report was made. */
    currentReportCount: integer('current_report_count'),
    cancerHistory: boolean('cancer_history').notNull().default(false),
    filePath: jsonb('file_path').$type<OrcaFilePath>().notNull().default({}),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('orca_exams_device_local_uq').on(t.deviceSerialNumber, t.localDbId),
    index('orca_exams_org_date_idx').on(t.organizationId, t.dateTime),
    index('orca_exams_date_idx').on(t.dateTime),
    index('orca_exams_technician_date_idx').on(t.technicianId, t.dateTime),
    index('orca_exams_device_idx').on(t.deviceSerialNumber),
    index('orca_exams_patient_idx').on(t.patientId),
    index('orca_exams_licence_code_idx').on(t.licenceCode),
  ],
);

export const orcaCaseHistories = pgTable(
  'orca_case_histories',
  {
    id: serial('id').primaryKey(),
    examId: integer('exam_id')
      .notNull()
      .references(() => orcaExams.id, { onDelete: 'cascade' }),
    consumesAlcohol: boolean('consumes_alcohol').notNull().default(false),
    alcoholUsageLastYear: text('alcohol_usage_last_year'),
    consumesOtherSubstance: boolean('consumes_other_substance').notNull().default(false),
    otherSubstanceConsumed: jsonb('other_substance_consumed').$type<string[]>().notNull().default([]),
    hasHypertension: boolean('has_hypertension').notNull().default(false),
    hadHeartAttack: boolean('had_heart_attack').notNull().default(false),
    hasAsthmaBronchitis: boolean('has_asthma_bronchitis').notNull().default(false),
    hasDiabetes: boolean('has_diabetes').notNull().default(false),
    hasStroke: boolean('has_stroke').notNull().default(false),
    usesTobacco: boolean('uses_tobacco').notNull().default(false),
    consumesSmokingTobacco: boolean('consumes_smoking_tobacco').notNull().default(false),
    smokingTobaccoType: jsonb('smoking_tobacco_type').$type<string[]>().notNull().default([]),
    smokingTobaccoUsageFrequency: text('smoking_tobacco_usage_frequency', { enum: TOBACCO_FREQUENCIES }),
    /** Durations are months; the console shows them as years (÷ 12). */
    smokingHistoryTimeMonths: integer('smoking_history_time_months'),
    /** Quantity (e.g. 10) per `smoke_count_unit` (e.g. 'day'). */
    smokesPerUnit: doublePrecision('smokes_per_unit'),
    smokeCountUnit: text('smoke_count_unit'),
    smokingQuitMonthsAgo: integer('smoking_quit_months_ago'),
    consumesSmokelessTobacco: boolean('consumes_smokeless_tobacco').notNull().default(false),
    smokelessTobaccoType: jsonb('smokeless_tobacco_type').$type<string[]>().notNull().default([]),
    smokelessTobaccoUsageFrequency: text('smokeless_tobacco_usage_frequency', { enum: TOBACCO_FREQUENCIES }),
    smokelessHistoryTimeMonths: integer('smokeless_history_time_months'),
    /** Quantity of packets per `smokeless_packets_duration_unit`. */
    smokelessPacketsCountUnit: doublePrecision('smokeless_packets_count_unit'),
    smokelessPacketsDurationUnit: text('smokeless_packets_duration_unit'),
    smokelessQuitMonthsAgo: integer('smokeless_quit_months_ago'),
    ...createdModified(),
  },
  (t) => [uniqueIndex('orca_case_histories_exam_uq').on(t.examId)],
);

export const orcaFindings = pgTable(
  'orca_findings',
  {
    id: serial('id').primaryKey(),
    examId: integer('exam_id')
      .notNull()
      .references(() => orcaExams.id, { onDelete: 'cascade' }),
    exam: text('exam', { enum: ORCA_EXAMS }).notNull(),
    part: text('part').notNull(),
    subPart: text('sub_part'),
    index: integer('index').notNull().default(0),
    symptoms: jsonb('symptoms').$type<string[]>().notNull().default([]),
    /** Stored image of the finding. */
    path: text('path'),
    ...createdModified(),
  },
  (t) => [index('orca_findings_exam_idx').on(t.examId, t.exam, t.index)],
);
