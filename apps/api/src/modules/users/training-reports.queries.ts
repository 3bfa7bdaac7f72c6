// Reads of the training and practice reports: the user the report is about (within the caller's scope), the totals
// of their scans of one type, and those scans in batches ordered by scan time (keyset on date_time, id, served by
// scans_technician_date_idx). Duplicates (children with parent_scan_id) are the same scan uploaded again: left out.
import { and, asc, count, eq, isNull, max, min, sql, type SQL } from 'drizzle-orm';
import type { ASSESSMENT_RESULTS } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import type { DbOrTx } from '../../db/client.ts';
import { organizations, patients, reportLogs, scans, users } from '../../db/schema/index.ts';
import type { CompanyInfo } from '../../db/schema/organizations.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';

type AssessmentResult = (typeof ASSESSMENT_RESULTS)[number];
type ReportScanType = 'TRAINING' | 'PRACTICE';

export type ReportTarget = {
  id: number;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  mobile: string | null;
  userType: TUserType;
  ibeTrainingStatus: (typeof users.$inferSelect)['ibeTrainingStatus'];
  certificateIssueDate: string | null;
  certificateExpiryDate: string | null;
  organization: {
    id: number;
    name: string;
    address1: string | null;
    address2: string | null;
    address3: string | null;
    state: string | null;
    zipcode: string | null;
    country: string | null;
    companyInfo: CompanyInfo;
  } | null;
};

/** The user, when they exist, are not deleted and belong to an organization in `scope` (else undefined: 404). */
export async function findReportTarget(
  db: DbOrTx,
  scope: Scope,
  userId: number,
): Promise<ReportTarget | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      mobile: users.mobile,
      userType: users.userType,
      ibeTrainingStatus: users.ibeTrainingStatus,
      certificateIssueDate: users.certificateIssueDate,
      certificateExpiryDate: users.certificateExpiryDate,
      organization: {
        id: organizations.id,
        name: organizations.name,
        address1: organizations.address1,
        address2: organizations.address2,
        address3: organizations.address3,
        state: organizations.state,
        zipcode: organizations.zipcode,
        country: organizations.country,
        companyInfo: organizations.companyInfo,
      },
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, userId), isNull(users.deletedAt), orgScopeCondition(scope, users.organizationId)))
    .limit(1);
  return row;
}

function reportScanConditions(scope: Scope, technicianId: number, scanType: ReportScanType): SQL | undefined {
  return and(
    eq(scans.technicianId, technicianId),
    eq(scans.scanType, scanType),
    isNull(scans.parentScanId),
    orgScopeCondition(scope, scans.organizationId),
  );
}

// practice_verified lives in a JSON object; anything but a JSON true or false reads as not set (never a cast error).
const practiceVerified = sql<
  boolean | null
>`case ${scans.trainingScanObservation}->>'practice_verified' when 'true' then true when 'false' then false end`;

export type ReportTotals = {
  total: number;
  first: Date | null;
  last: Date | null;
  byResult: Record<AssessmentResult, number>;
  approved: number;
  verified: number;
};

export async function summarizeReportScans(
  db: DbOrTx,
  scope: Scope,
  technicianId: number,
  scanType: ReportScanType,
): Promise<ReportTotals> {
  const rows = await db
    .select({
      result: scans.assessmentResult,
      n: count(),
      first: min(scans.dateTime),
      last: max(scans.dateTime),
      approved: sql<number>`count(*) filter (where ${scans.assessmentApproved})::int`,
      verified: sql<number>`count(*) filter (where ${practiceVerified})::int`,
    })
    .from(scans)
    .where(reportScanConditions(scope, technicianId, scanType))
    .groupBy(scans.assessmentResult);
  const totals: ReportTotals = {
    total: 0,
    first: null,
    last: null,
    byResult: { NO_ASSESSMENT: 0, CORRECT: 0, INCORRECT: 0, BYPASS: 0, USER_BYPASS: 0 },
    approved: 0,
    verified: 0,
  };
  for (const row of rows) {
    totals.total += row.n;
    totals.byResult[row.result] += row.n;
    totals.approved += row.approved;
    totals.verified += row.verified;
    if (row.first && (!totals.first || row.first < totals.first)) totals.first = row.first;
    if (row.last && (!totals.last || row.last > totals.last)) totals.last = row.last;
  }
  return totals;
}

export type ReportScanRow = {
  id: number;
  dateTime: Date;
  /** date_time as PostgreSQL writes it (microseconds kept): where the next batch starts. */
  cursorTime: string;
  deviceSerialNumber: string | null;
  assessmentResult: AssessmentResult;
  assessmentApproved: boolean | null;
  practiceVerified: boolean | null;
  patientFirstName: string | null;
  patientLastName: string | null;
};

export type ScanCursor = { time: string; id: number };

/** The next `limit` scans after `after` (oldest first). */
export async function listReportScanBatch(
  db: DbOrTx,
  scope: Scope,
  technicianId: number,
  scanType: ReportScanType,
  after: ScanCursor | null,
  limit: number,
): Promise<ReportScanRow[]> {
  return db
    .select({
      id: scans.id,
      dateTime: scans.dateTime,
      cursorTime: sql<string>`${scans.dateTime}::text`,
      deviceSerialNumber: scans.deviceSerialNumber,
      assessmentResult: scans.assessmentResult,
      assessmentApproved: scans.assessmentApproved,
      practiceVerified,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
    })
    .from(scans)
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .where(
      and(
        reportScanConditions(scope, technicianId, scanType),
        after ? sql`(${scans.dateTime}, ${scans.id}) > (${after.time}::timestamptz, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(scans.dateTime), asc(scans.id))
    .limit(limit);
}

/** One report-log row per download (part 3 §3 Report log entry). */
export async function insertReportLog(
  db: DbOrTx,
  values: {
    api: string;
    apiQp: Record<string, unknown>;
    userAgent: string | null;
    userId: number;
    userType: string;
    at: Date;
  },
): Promise<void> {
  await db.insert(reportLogs).values({
    api: values.api,
    apiQp: values.apiQp,
    userAgent: values.userAgent,
    requestedMethod: 'GET',
    userId: values.userId,
    userType: values.userType,
    created: values.at,
  });
}
