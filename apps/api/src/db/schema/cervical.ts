// Cervical (Cervaical) exams, their photo/video documents and the per-reviewer reviews (part 3 §3),
// plus the catalogues of image qualities and clinical findings a review answers.
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { DOCUMENT_TYPES, REVIEWER_STATUSES, REVIEW_STATUSES } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';
import { breastFindingColumns, examColumns, type StoredFile } from './exam-columns.ts';
import { users } from './identity.ts';

export type ExamFilePath = { reports?: StoredFile[]; consent_form?: StoredFile[] };

export const cervicalExams = pgTable(
  'cervical_exams',
  {
    id: serial('id').primaryKey(),
    ...examColumns(),
    // The row shape of part 3 §3 repeats the breast fields; kept so the list and CSV read one table.
    ...breastFindingColumns(),
    notes: jsonb('notes').$type<{ message?: string | null }>().notNull().default({}),
    filePath: jsonb('file_path').$type<ExamFilePath>().notNull().default({}),
    /** architecture §7: the first reviewer of the exam's documents is reviewer 1, the second reviewer 2. */
    reviewerOneId: integer('reviewer_one_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerOneStatus: text('reviewer_one_status', { enum: REVIEWER_STATUSES })
      .notNull()
      .default('NOT_REVIEWED'),
    reviewerTwoId: integer('reviewer_two_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerTwoStatus: text('reviewer_two_status', { enum: REVIEWER_STATUSES })
      .notNull()
      .default('NOT_REVIEWED'),
    /** Beyond the spec: an ADMIN's third, final read of an exam whose two reviewers disagree. */
    finalStatus: text('final_status', { enum: REVIEW_STATUSES }),
    adjudicatedById: integer('adjudicated_by_id').references(() => users.id, { onDelete: 'set null' }),
    adjudicatedAt: timestamp('adjudicated_at', { withTimezone: true }),
    adjudicationNote: text('adjudication_note'),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('cervical_exams_device_local_uq').on(t.deviceSerialNumber, t.localDbId),
    index('cervical_exams_org_date_idx').on(t.organizationId, t.dateTime),
    index('cervical_exams_date_idx').on(t.dateTime),
    index('cervical_exams_technician_date_idx').on(t.technicianId, t.dateTime),
    index('cervical_exams_device_idx').on(t.deviceSerialNumber),
    index('cervical_exams_patient_idx').on(t.patientId),
    index('cervical_exams_reviewer_status_idx').on(t.reviewerOneStatus, t.reviewerTwoStatus),
  ],
);

export const cervicalDocuments = pgTable(
  'cervical_documents',
  {
    id: serial('id').primaryKey(),
    examId: integer('exam_id')
      .notNull()
      .references(() => cervicalExams.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    documentType: text('document_type', { enum: DOCUMENT_TYPES }).notNull(),
    symptomTag: text('symptom_tag'),
    ...createdModified(),
  },
  (t) => [index('cervical_documents_exam_idx').on(t.examId, t.documentType)],
);

export type ReviewQualityAnswer = { id: number; name: string; answer: boolean; quality: number };
export type ReviewFindingAnswer = { id: number; name: string; answer: boolean; clinical_finding: number };

/** One reviewer's review of one document (the spec's "documentusers"). */
export const cervicalDocumentReviews = pgTable(
  'cervical_document_reviews',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => cervicalDocuments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    reviewStatus: text('review_status', { enum: REVIEW_STATUSES }).notNull(),
    reviewStatusAt: timestamp('review_status_at', { withTimezone: true }).notNull().defaultNow(),
    qualities: jsonb('qualities').$type<ReviewQualityAnswer[]>().notNull().default([]),
    clinicalFinding: jsonb('clinical_finding').$type<ReviewFindingAnswer[]>().notNull().default([]),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    uniqueIndex('cervical_document_reviews_uq').on(t.documentId, t.userId),
    index('cervical_document_reviews_user_idx').on(t.userId),
  ],
);

export const cervicalQualities = pgTable('cervical_qualities', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isRequired: boolean('is_required').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  zOrder: integer('z_order').notNull().default(0),
  ...createdModified(),
});

export const cervicalClinicalFindings = pgTable('cervical_clinical_findings', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isRequired: boolean('is_required').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  zOrder: integer('z_order').notNull().default(0),
  ...createdModified(),
});
