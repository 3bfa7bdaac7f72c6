// Drizzle queries of the cervical exams (part 3 §2, §7): one filter builder shared by the page, its count and the
// CSV, so every reader selects the same exams. For a CERVAICAL_REVIEWER the reviewer statuses are read through the
// blinding expression (visibleStatus): filtering or sorting by them reveals nothing the row would not show.
import { and, asc, count, desc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TReviewerStatus, TReviewFact } from '@sc/shared/cervical';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  cervicalClinicalFindings,
  cervicalDocumentReviews,
  cervicalDocuments,
  cervicalExams,
  cervicalQualities,
  devices,
  organizations,
  patients,
  users,
} from '../../db/schema/index.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { patientAgeCondition, patientOrIdSearch } from '../patients/patient-filters.ts';

export type CervicalFilters = {
  range: PeriodRange;
  search?: string;
  organizationId?: number;
  deviceSerialNumber?: string;
  technicianId?: number;
  isSurvivor?: boolean;
  isPositive?: boolean;
  leftFinding?: boolean;
  rightFinding?: boolean;
  hasSymptoms?: boolean;
  hasFamilyHistory?: boolean;
  ageMin?: number;
  ageMax?: number;
  patientId?: number;
  reviewerOneStatus?: TReviewerStatus;
  reviewerTwoStatus?: TReviewerStatus;
  disagreement?: boolean;
  adjudicated?: boolean;
  ids?: number[];
};

/** Whose eyes read the statuses: a reviewer (blinded) or anybody else (sees them all). */
export type Viewer = { reviewerId: number | null };

const e = cervicalExams;

/** Whether the viewing reviewer may see the other reviewer's answers (shared reviewerSeesOthers, in SQL). */
function seesOthers(viewerId: number): SQL {
  return sql`(case when ${e.reviewerOneId} = ${viewerId} then ${e.reviewerOneStatus} <> 'NOT_REVIEWED'
    when ${e.reviewerTwoId} = ${viewerId} then ${e.reviewerTwoStatus} <> 'NOT_REVIEWED'
    else (${e.reviewerOneId} is not null and ${e.reviewerTwoId} is not null) end)`;
}

/** A reviewer status as the viewer may see it: null for another reviewer's while the viewer is blinded. */
export function visibleStatus(slot: 'one' | 'two', viewer: Viewer): SQL {
  const id = slot === 'one' ? e.reviewerOneId : e.reviewerTwoId;
  const status = slot === 'one' ? e.reviewerOneStatus : e.reviewerTwoStatus;
  if (viewer.reviewerId === null) return sql`${status}`;
  return sql`(case when ${id} is not null and ${id} <> ${viewer.reviewerId} and not ${seesOthers(viewer.reviewerId)} then null else ${status} end)`;
}

const disagreementSql = sql`(${e.reviewerOneStatus} <> 'NOT_REVIEWED' and ${e.reviewerTwoStatus} <> 'NOT_REVIEWED' and ${e.reviewerOneStatus} <> ${e.reviewerTwoStatus})`;

const bool = (column: AnyColumn, value: boolean | undefined) =>
  value === undefined ? undefined : sql`${column} = ${value}`;
const cardinality = (column: AnyColumn, value: boolean | undefined) =>
  value === undefined
    ? undefined
    : value
      ? sql`cardinality(${column}) > 0`
      : sql`cardinality(${column}) = 0`;

export function cervicalConditions(scope: Scope, f: CervicalFilters, viewer: Viewer): SQL {
  const conditions: (SQL | undefined)[] = [
    orgScopeCondition(scope, e.organizationId),
    periodCondition(e.dateTime, f.range),
    f.organizationId === undefined ? undefined : eq(e.organizationId, f.organizationId),
    f.deviceSerialNumber === undefined
      ? undefined
      : sql`lower(${e.deviceSerialNumber}) = lower(${f.deviceSerialNumber})`,
    f.technicianId === undefined ? undefined : eq(e.technicianId, f.technicianId),
    bool(e.isSurvivor, f.isSurvivor),
    f.isPositive === undefined ? undefined : sql`${e.isPositive} = ${f.isPositive}`,
    cardinality(e.leftBreastFinding, f.leftFinding),
    cardinality(e.rightBreastFinding, f.rightFinding),
    bool(e.hasSymptoms, f.hasSymptoms),
    bool(e.hasFamilyHistory, f.hasFamilyHistory),
    patientAgeCondition(e.patientId, f.ageMin, f.ageMax),
    f.patientId === undefined ? undefined : eq(e.patientId, f.patientId),
    f.reviewerOneStatus === undefined
      ? undefined
      : sql`${visibleStatus('one', viewer)} = ${f.reviewerOneStatus}`,
    f.reviewerTwoStatus === undefined
      ? undefined
      : sql`${visibleStatus('two', viewer)} = ${f.reviewerTwoStatus}`,
    f.disagreement === undefined ? undefined : f.disagreement ? disagreementSql : sql`not ${disagreementSql}`,
    f.adjudicated === undefined
      ? undefined
      : f.adjudicated
        ? sql`${e.finalStatus} is not null`
        : sql`${e.finalStatus} is null`,
    f.ids === undefined ? undefined : sql`${e.id} = any(${`{${f.ids.join(',')}}`}::int[])`,
    patientOrIdSearch(e.patientId, e.id, f.search),
  ];
  return and(...conditions) ?? sql`true`;
}

const reviewerOne = alias(users, 'reviewer_one');
const reviewerTwo = alias(users, 'reviewer_two');
const adjudicator = alias(users, 'adjudicator');

function selectRows(db: DbOrTx) {
  return db
    .select({
      exam: e,
      patient: patients,
      organizationName: organizations.name,
      technician: { id: users.id, firstName: users.firstName, lastName: users.lastName },
      deviceId: devices.id,
      reviewerOne: { id: reviewerOne.id, firstName: reviewerOne.firstName, lastName: reviewerOne.lastName },
      reviewerTwo: { id: reviewerTwo.id, firstName: reviewerTwo.firstName, lastName: reviewerTwo.lastName },
      adjudicator: { id: adjudicator.id, firstName: adjudicator.firstName, lastName: adjudicator.lastName },
    })
    .from(e)
    .leftJoin(patients, eq(patients.id, e.patientId))
    .leftJoin(organizations, eq(organizations.id, e.organizationId))
    .leftJoin(users, eq(users.id, e.technicianId))
    .leftJoin(devices, eq(devices.serialNumber, e.deviceSerialNumber))
    .leftJoin(reviewerOne, eq(reviewerOne.id, e.reviewerOneId))
    .leftJoin(reviewerTwo, eq(reviewerTwo.id, e.reviewerTwoId))
    .leftJoin(adjudicator, eq(adjudicator.id, e.adjudicatedById));
}
export type CervicalRowData = Awaited<ReturnType<typeof listCervicalRows>>[number];

/** Ordering fields (CERVICAL_ORDERING_FIELDS); the status fields read through the viewer's blinding. */
export const orderingFields = (viewer: Viewer) => ({
  id: e.id,
  date_time: e.dateTime,
  created: e.created,
  first_name: patients.firstName,
  last_name: patients.lastName,
  device_serial_number: e.deviceSerialNumber,
  organization_name: organizations.name,
  technician_name: sql`(${users.firstName} || ' ' || ${users.lastName})`,
  reviewer_one_status: visibleStatus('one', viewer),
  reviewer_two_status: visibleStatus('two', viewer),
});

export async function listCervicalRows(
  db: Db,
  where: SQL,
  orderBy: SQL[],
  limit: number,
  offset: number,
) {
  return selectRows(db)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

export async function countCervical(db: Db, where: SQL): Promise<number> {
  const [row] = await db.select({ count: count() }).from(e).where(where);
  return row?.count ?? 0;
}

/** A CSV batch, newest first, before the (dateTime, id) keyset. */
export async function cervicalCsvBatch(
  db: Db,
  where: SQL,
  before: { dateTime: Date; id: number } | null,
  limit: number,
) {
  const keyset = before
    ? sql`(${e.dateTime}, ${e.id}) < (${before.dateTime.toISOString()}::timestamptz, ${before.id})`
    : undefined;
  return selectRows(db)
    .where(and(where, keyset))
    .orderBy(desc(e.dateTime), desc(e.id))
    .limit(limit);
}

export async function findCervicalRow(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await selectRows(db)
    .where(and(eq(e.id, id), orgScopeCondition(scope, e.organizationId)))
    .limit(1);
  return row ?? null;
}

// ---- Documents and reviews ---------------------------------------------------------------------------------------

export async function listDocuments(db: DbOrTx, examId: number) {
  return db
    .select()
    .from(cervicalDocuments)
    .where(eq(cervicalDocuments.examId, examId))
    .orderBy(asc(cervicalDocuments.documentType), asc(cervicalDocuments.id));
}

export async function listReviews(db: DbOrTx, documentIds: readonly number[]) {
  if (documentIds.length === 0) return [];
  return db
    .select({
      review: cervicalDocumentReviews,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName },
    })
    .from(cervicalDocumentReviews)
    .leftJoin(users, eq(users.id, cervicalDocumentReviews.userId))
    .where(inArray(cervicalDocumentReviews.documentId, [...documentIds]))
    .orderBy(asc(cervicalDocumentReviews.reviewStatusAt), asc(cervicalDocumentReviews.id));
}
export type ReviewWithUser = Awaited<ReturnType<typeof listReviews>>[number];

/** The document with its exam's organization (for the scope check). */
export async function findDocument(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ document: cervicalDocuments, organizationId: e.organizationId })
    .from(cervicalDocuments)
    .innerJoin(e, eq(e.id, cervicalDocuments.examId))
    .where(eq(cervicalDocuments.id, id))
    .limit(1);
  return row ?? null;
}

export async function findReview(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      review: cervicalDocumentReviews,
      examId: cervicalDocuments.examId,
      organizationId: e.organizationId,
    })
    .from(cervicalDocumentReviews)
    .innerJoin(cervicalDocuments, eq(cervicalDocuments.id, cervicalDocumentReviews.documentId))
    .innerJoin(e, eq(e.id, cervicalDocuments.examId))
    .where(eq(cervicalDocumentReviews.id, id))
    .limit(1);
  return row ?? null;
}

/** Locks the exam row for the length of the transaction: reviews of one exam are written one after another. */
export async function lockExam(tx: DbOrTx, examId: number) {
  const [row] = await tx.select().from(e).where(eq(e.id, examId)).for('update').limit(1);
  return row ?? null;
}

export async function reviewFactsOfExam(
  tx: DbOrTx,
  examId: number,
): Promise<{ documentIds: number[]; reviews: TReviewFact[] }> {
  const docs = await tx
    .select({ id: cervicalDocuments.id })
    .from(cervicalDocuments)
    .where(eq(cervicalDocuments.examId, examId));
  const documentIds = docs.map((d) => d.id);
  const reviews = documentIds.length
    ? await tx
        .select({
          documentId: cervicalDocumentReviews.documentId,
          userId: cervicalDocumentReviews.userId,
          status: cervicalDocumentReviews.reviewStatus,
          at: cervicalDocumentReviews.reviewStatusAt,
        })
        .from(cervicalDocumentReviews)
        .where(inArray(cervicalDocumentReviews.documentId, documentIds))
    : [];
  return { documentIds, reviews };
}

export async function activeOptions(db: DbOrTx) {
  const qualities = await db
    .select({ id: cervicalQualities.id, name: cervicalQualities.name, isRequired: cervicalQualities.isRequired })
    .from(cervicalQualities)
    .where(eq(cervicalQualities.isActive, true))
    .orderBy(asc(cervicalQualities.zOrder), asc(cervicalQualities.id));
  const f = cervicalClinicalFindings;
  const findings = await db
    .select({ id: f.id, name: f.name, isRequired: f.isRequired })
    .from(f)
    .where(eq(f.isActive, true))
    .orderBy(asc(f.zOrder), asc(f.id));
  return { qualities, findings };
}

// ---- Agreement ------------------------------------------------------------------------------------------------------

/** Per reviewer of the exams `where` selects: finished exams, exams both reviewers finished, and agreements. */
export async function reviewerAgreement(db: Db, where: SQL) {
  const slots = sql`(select ${e.reviewerOneId} as uid, ${e.reviewerOneStatus} as mine, ${e.reviewerTwoStatus} as other
      from ${e} where ${where} and ${e.reviewerOneId} is not null
    union all
    select ${e.reviewerTwoId}, ${e.reviewerTwoStatus}, ${e.reviewerOneStatus}
      from ${e} where ${where} and ${e.reviewerTwoId} is not null) as x`;
  const result = await db.execute(sql`select u.id, u.first_name, u.last_name,
      count(*) filter (where x.mine <> 'NOT_REVIEWED')::int as reviewed,
      count(*) filter (where x.mine <> 'NOT_REVIEWED' and x.other <> 'NOT_REVIEWED')::int as compared,
      count(*) filter (where x.mine <> 'NOT_REVIEWED' and x.other = x.mine)::int as agreed
    from ${slots} join ${users} u on u.id = x.uid
    group by u.id, u.first_name, u.last_name
    order by u.first_name, u.last_name, u.id`);
  return result.rows as {
    id: number;
    first_name: string;
    last_name: string;
    reviewed: number;
    compared: number;
    agreed: number;
  }[];
}
