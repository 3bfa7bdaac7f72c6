// Drizzle queries of the console's ORCA exams (part 3 §2, §7): one filter builder shared by the page, its count and
// the CSV, so every reader selects exactly the same exams. Conditions stay on orca_exams columns or `IN (subquery)`,
// so the count needs no join and the exam indexes (organization/date, technician/date, device, licence code) serve.
import { and, count, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  devices,
  orcaCaseHistories,
  orcaExams,
  orcaFindings,
  organizations,
  patients,
  users,
} from '../../db/schema/index.ts';
import { periodCondition, type PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { patientAgeCondition, patientOrIdSearch } from '../patients/patient-filters.ts';
import { qualified } from '../../db/qualified.ts';
import { csvDateTimeSql } from '../../http/csv-stream.ts';

export type OrcaFilters = {
  range: PeriodRange;
  search?: string;
  organizationId?: number;
  deviceSerialNumber?: string;
  technicianId?: number;
  patientId?: number;
  licenceCode?: string;
  isSurvivor?: boolean;
  hasSymptoms?: boolean;
  hasFamilyHistory?: boolean;
  cancerHistory?: boolean;
  isPositive?: boolean;
  hasReport?: boolean;
  ageMin?: number;
  ageMax?: number;
};

const boolCondition = (column: AnyColumn, value: boolean | undefined) =>
  value === undefined ? undefined : sql`${column} = ${value}`;

const positiveExists = sql`exists (select 1 from ${orcaFindings} where ${orcaFindings.examId} = ${qualified(orcaExams.id)} and jsonb_array_length(${orcaFindings.symptoms}) > 0)`;
const reportExists = sql`jsonb_array_length(coalesce(${orcaExams.filePath}->'reports', '[]'::jsonb)) > 0`;

export function orcaConditions(scope: Scope, f: OrcaFilters): SQL {
  return (
    and(
      orgScopeCondition(scope, orcaExams.organizationId),
      periodCondition(orcaExams.dateTime, f.range),
      f.organizationId === undefined ? undefined : eq(orcaExams.organizationId, f.organizationId),
      // The registry's spelling (uploads store it), so `?device=orc1` finds ORC1.
      f.deviceSerialNumber === undefined
        ? undefined
        : sql`${orcaExams.deviceSerialNumber} = coalesce((select ${devices.serialNumber} from ${devices} where lower(${devices.serialNumber}) = lower(${f.deviceSerialNumber}) limit 1), ${f.deviceSerialNumber})`,
      f.technicianId === undefined ? undefined : eq(orcaExams.technicianId, f.technicianId),
      f.patientId === undefined ? undefined : eq(orcaExams.patientId, f.patientId),
      f.licenceCode === undefined ? undefined : eq(orcaExams.licenceCode, f.licenceCode),
      boolCondition(orcaExams.isSurvivor, f.isSurvivor),
      boolCondition(orcaExams.hasSymptoms, f.hasSymptoms),
      boolCondition(orcaExams.hasFamilyHistory, f.hasFamilyHistory),
      boolCondition(orcaExams.cancerHistory, f.cancerHistory),
      f.isPositive === undefined ? undefined : f.isPositive ? positiveExists : sql`not ${positiveExists}`,
      f.hasReport === undefined ? undefined : f.hasReport ? reportExists : sql`not ${reportExists}`,
      patientAgeCondition(orcaExams.patientId, f.ageMin, f.ageMax),
      patientOrIdSearch(orcaExams.patientId, orcaExams.id, f.search),
    ) ?? sql`true`
  );
}

const rowSelection = {
  exam: orcaExams,
  patient: patients,
  patientOrganizationName: sql<
    string | null
  >`(select ${organizations.name} from ${organizations} where ${organizations.id} = ${patients.organizationId})`,
  organizationName: organizations.name,
  technician: { id: users.id, firstName: users.firstName, lastName: users.lastName },
};

const selectRows = (db: DbOrTx) =>
  db
    .select(rowSelection)
    .from(orcaExams)
    .leftJoin(patients, eq(patients.id, orcaExams.patientId))
    .leftJoin(organizations, eq(organizations.id, orcaExams.organizationId))
    .leftJoin(users, eq(users.id, orcaExams.technicianId));

export type OrcaRowData = Awaited<ReturnType<typeof listOrcaRows>>[number];

export const orcaOrderingFields = {
  id: orcaExams.id,
  date_time: orcaExams.dateTime,
  created: orcaExams.created,
  first_name: patients.firstName,
  last_name: patients.lastName,
  organization_name: organizations.name,
  technician_name: sql`(${users.firstName} || ' ' || ${users.lastName})`,
  licence_code: orcaExams.licenceCode,
  device_serial_number: orcaExams.deviceSerialNumber,
};

export async function listOrcaRows(
  db: Db,
  scope: Scope,
  f: OrcaFilters,
  orderBy: SQL[],
  limit: number,
  offset: number,
) {
  return selectRows(db)
    .where(orcaConditions(scope, f))
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

export async function countOrca(db: Db, scope: Scope, f: OrcaFilters): Promise<number> {
  const [row] = await db.select({ count: count() }).from(orcaExams).where(orcaConditions(scope, f));
  return row?.count ?? 0;
}

/** One exam in scope with its case history and findings (index order), or null. */
export async function findOrcaDetail(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await selectRows(db)
    .where(and(eq(orcaExams.id, id), orgScopeCondition(scope, orcaExams.organizationId)))
    .limit(1);
  if (!row) return null;
  const [history] = await db
    .select()
    .from(orcaCaseHistories)
    .where(eq(orcaCaseHistories.examId, id))
    .limit(1);
  const findings = await db
    .select()
    .from(orcaFindings)
    .where(eq(orcaFindings.examId, id))
    .orderBy(orcaFindings.index, orcaFindings.id);
  return { row, history: history ?? null, findings };
}

// ---- CSV -----------------------------------------------------------------------------------------------------

const csvSelection = (timezone: string) => ({
  id: orcaExams.id,
  dateTime: orcaExams.dateTime,
  firstName: patients.firstName,
  lastName: patients.lastName,
  age: patients.age,
  gender: patients.gender,
  mobile: patients.mobile,
  email: patients.email,
  organizationName: organizations.name,
  technicianName: sql<string | null>`(${users.firstName} || ' ' || ${users.lastName})`,
  licenceCode: orcaExams.licenceCode,
  localTime: csvDateTimeSql(orcaExams.dateTime, timezone),
  syncedTime: csvDateTimeSql(orcaExams.created, timezone),
  isSurvivor: orcaExams.isSurvivor,
  hasSymptoms: orcaExams.hasSymptoms,
  hasFamilyHistory: orcaExams.hasFamilyHistory,
  cancerHistory: orcaExams.cancerHistory,
  usesTobacco: orcaCaseHistories.usesTobacco,
  consumesAlcohol: orcaCaseHistories.consumesAlcohol,
  abnormalFindings: sql<number>`(select count(*)::int from ${orcaFindings} where ${orcaFindings.examId} = ${qualified(orcaExams.id)} and jsonb_array_length(${orcaFindings.symptoms}) > 0)`,
  deviceSerialNumber: orcaExams.deviceSerialNumber,
  tabletSerialNumber: orcaExams.tabletSerialNumber,
  softwareVersion: orcaExams.softwareVersion,
});
export type OrcaCsvRow = Awaited<ReturnType<typeof listOrcaCsvBatch>>[number];

/** One keyset batch of the CSV, newest first: rows before (dateTime, id). */
export async function listOrcaCsvBatch(
  db: Db,
  scope: Scope,
  f: OrcaFilters,
  timezone: string,
  before: { dateTime: Date; id: number } | null,
  limit: number,
) {
  const keyset = before
    ? sql`${orcaExams.dateTime} <= ${before.dateTime.toISOString()} and (${orcaExams.dateTime}, ${orcaExams.id}) < (${before.dateTime.toISOString()}::timestamptz, ${before.id})`
    : undefined;
  return db
    .select(csvSelection(timezone))
    .from(orcaExams)
    .leftJoin(patients, eq(patients.id, orcaExams.patientId))
    .leftJoin(organizations, eq(organizations.id, orcaExams.organizationId))
    .leftJoin(users, eq(users.id, orcaExams.technicianId))
    .leftJoin(orcaCaseHistories, eq(orcaCaseHistories.examId, orcaExams.id))
    .where(and(orcaConditions(scope, f), keyset))
    .orderBy(desc(orcaExams.dateTime), desc(orcaExams.id))
    .limit(limit);
}
