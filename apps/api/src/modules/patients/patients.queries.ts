// Drizzle queries of patients (part 2 §3 Patient): insert, the row with what its presentation needs, and the
// checks an upload makes (a reference of the organization, the patient's organization).
import { and, count, desc, eq, inArray, isNotNull, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PATIENT_ORDERING_FIELDS } from '@sc/shared/patients';
import { asValue, literalLimit, placeholdersOf, preparedQueries, type Bind, type Db, type DbOrTx } from '../../db/client.ts';
import { cappedCount, countFromTotals, countUpToSql, pageStatement } from '../../db/list-counts.ts';
import { SEARCH_COUNT_AHEAD } from '@sc/shared/list';
import {
  cervicalExams,
  languages,
  orcaExams,
  organizations,
  patients,
  references,
  scans,
  users,
} from '../../db/schema/index.ts';
import type { PageParams } from '../../http/pagination.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { searchPatterns } from '../../http/search.ts';
import { scanFilePaths } from '../scan-files/scan-files.service.ts';

export type PatientRow = typeof patients.$inferSelect;
export type PatientInsert = typeof patients.$inferInsert;

export async function insertPatient(db: DbOrTx, values: PatientInsert): Promise<PatientRow> {
  const [row] = await db.insert(patients).values(values).returning();
  if (!row) throw new Error('The patient was not stored.');
  return row;
}

/** Whether a Language has this iso code (codes are unique lower-cased): a patient's consent language. */
export async function languageCodeExists(db: DbOrTx, isoCode: string): Promise<boolean> {
  const [row] = await db
    .select({ id: languages.id })
    .from(languages)
    .where(eq(sql`lower(${languages.isoCode})`, isoCode.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

/** A patient with its reference name, organization name and technician. */
export async function findPatientForPresentation(db: DbOrTx, id: number) {
  const [row] = await patientsForPresentation(db).where(eq(patients.id, id)).limit(1);
  return row ?? null;
}
export type PatientForPresentation = NonNullable<Awaited<ReturnType<typeof findPatientForPresentation>>>;

/** Whether `id` is an active reference of organization `organizationId`. */
export async function isActiveReferenceOf(db: DbOrTx, id: number, organizationId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: references.id })
    .from(references)
    .where(
      and(
        eq(references.id, id),
        eq(references.organizationId, organizationId),
        eq(references.isActive, true),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The organization a patient belongs to, or undefined when there is no such patient. */
export async function findPatientOrganization(
  db: DbOrTx,
  id: number,
): Promise<{ organizationId: number | null } | undefined> {
  const [row] = await db
    .select({ organizationId: patients.organizationId })
    .from(patients)
    .where(eq(patients.id, id))
    .limit(1);
  return row;
}

// ---- Console: list, one patient in scope, edit, delete, transfer, reports -----------------------------------------

/** The columns the list and the dialog show, joined once. */
function patientsForPresentation(db: DbOrTx) {
  return db
    .select({
      patient: patients,
      referenceName: references.name,
      organizationName: organizations.name,
      technician: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        userType: users.userType,
      },
    })
    .from(patients)
    .leftJoin(references, eq(references.id, patients.referenceId))
    .leftJoin(organizations, eq(organizations.id, patients.organizationId))
    .leftJoin(users, eq(users.id, patients.technicianId));
}

/**
 * The name search of the patient list and of the breast scan list: name, mobile or e-mail contains the term, any
 * case. `search_text` is that text lower-cased by the database (schema/patients.ts), so `LIKE lower('%term%')`
 * selects exactly what `ILIKE` over the same text would (PostgreSQL's ILIKE lower-cases both sides, then LIKEs)
 * while patients_search_text_trgm_idx serves it and no candidate row is lower-cased again. `column`: the scan list
 * searches the same text in patient_search (migration 0018), kept equal to it.
 */
export function patientSearchCondition(
  term: string,
  bind: Bind = asValue,
  column: AnyColumn | SQL = patients.searchText,
): SQL {
  // One LIKE per pattern (the term, and its phone form: http/search.ts), each served by the trigram index.
  const [first, phone] = searchPatterns(term);
  const like = sql`${column} like lower(${bind('search', first)})`;
  return phone === undefined ? like : sql`(${like} or ${column} like lower(${bind('searchPhone', phone)}))`;
}

export const patientOrderingFields = {
  id: patients.id,
  first_name: patients.firstName,
  last_name: patients.lastName,
  age: patients.age,
  created: patients.created,
  synced: patients.synced,
  date_time: patients.dateTime,
} satisfies Record<(typeof PATIENT_ORDERING_FIELDS)[number], AnyColumn>;

export type PatientFilters = {
  organizationId?: number;
  technicianId?: number;
  gender?: (typeof patients.gender.enumValues)[number];
  assigned?: boolean;
  search?: string;
  created: PeriodRange;
};

function listWhere(scope: Scope, f: PatientFilters, bind: Bind = asValue): SQL | undefined {
  return and(
    orgScopeCondition(scope, patients.organizationId),
    f.organizationId === undefined ? undefined : sql`${patients.organizationId} = ${bind('organizationId', f.organizationId)}`,
    f.technicianId === undefined ? undefined : sql`${patients.technicianId} = ${bind('technicianId', f.technicianId)}`,
    f.gender === undefined ? undefined : sql`${patients.gender} = ${bind('gender', f.gender)}`,
    f.assigned === undefined ? undefined : f.assigned ? isNotNull(patients.organizationId) : isNull(patients.organizationId),
    f.search?.trim() ? patientSearchCondition(f.search.trim(), bind) : undefined,
    // http/period.ts periodCondition's rule (from inclusive, to exclusive), with bound values.
    f.created.from ? sql`${patients.created} >= ${bind('from', f.created.from.toISOString())}` : undefined,
    f.created.to ? sql`${patients.created} < ${bind('to', f.created.to.toISOString())}` : undefined,
  );
}

/**
 * The shape of the list's SQL (the scope with its organizations, which filters are set — every key, so a filter added
 * later changes the shape without being listed here —, assigned or not, written as SQL), or null for a name search:
 * its best plan depends on the term, so it is planned on each call.
 */
export function patientListShape(scope: Scope, f: PatientFilters): string | null {
  if (f.search?.trim()) return null;
  const set = (Object.keys(f) as (keyof PatientFilters)[]).filter((k) => k !== 'created' && f[k] !== undefined).sort();
  return JSON.stringify([scope, set, f.assigned ?? null, f.created.from !== undefined, f.created.to !== undefined]);
}

const preparedPatientPage = preparedQueries(
  'patient_list_page',
  (db, name, a: { where: SQL | undefined; orderBy: SQL[]; limit: number }) =>
    patientsForPresentation(db).where(a.where).orderBy(...a.orderBy).limit(literalLimit(a.limit)).prepare(name),
);
/** The rows of `ids` in their order, one prepared statement for every page, planned once per connection. */
const preparedPatientsByIds = preparedQueries('patient_list_rows', (db, name) =>
  patientsForPresentation(db)
    // A subquery hides the ids from the planner, so PostgreSQL keeps the generic plan (scan-list.queries.ts).
    .where(sql`${patients.id} = any((select ${sql.placeholder('ids')}::int[])::int[])`)
    .prepare(name),
);

async function patientsInOrder(db: Db, ids: readonly number[]): Promise<PatientForPresentation[]> {
  if (ids.length === 0) return [];
  const rows = await preparedPatientsByIds(db, 'rows', undefined).execute({ ids: `{${ids.join(',')}}` });
  const byId = new Map(rows.map((row) => [row.patient.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const preparedPatientCount = preparedQueries('patient_list_count', (db, name, where: SQL | undefined) =>
  db.select({ count: count() }).from(patients).where(where).prepare(name),
);

/**
 * A page of patients and the count, read in parallel: exact, except a name search's, which counts up to
 * SEARCH_COUNT_AHEAD rows past the page's first (`capped` when more match). A first page without a name search runs as named
 * prepared statements, one per shape (patientListShape), ordering and page size (db/client.ts preparedQueries).
 */
export async function listPatients(
  db: Db,
  scope: Scope,
  filters: PatientFilters,
  ordering: { key: string; orderBy: SQL[] },
  page: Pick<PageParams, 'limit' | 'offset'>,
): Promise<{ rows: PatientForPresentation[]; count: number; capped: boolean }> {
  // Without a search, gender, technician or period the count is the sum of the per-organization totals.
  const fromTotals =
    !filters.search?.trim() &&
    filters.technicianId === undefined &&
    filters.gender === undefined &&
    filters.created.from === undefined &&
    filters.created.to === undefined;
  const shape = patientListShape(scope, filters);
  const { bind, values: placeholders } = placeholdersOf();
  const where = listWhere(scope, filters, shape === null ? asValue : bind);
  if (filters.search?.trim()) {
    // A search is planned per call: its ids and its bounded count on the patients alone in one statement (planning
    // the page with its joins cost the database more than running it), then the rows of those ids, prepared.
    const cap = page.offset + SEARCH_COUNT_AHEAD;
    const ids = db
      .select({ id: patients.id })
      .from(patients)
      .where(where)
      .orderBy(...ordering.orderBy)
      .limit(page.limit)
      .offset(page.offset);
    const [found] = await pageStatement(db, ids, countUpToSql(patients, where, cap));
    return { rows: await patientsInOrder(db, found?.ids ?? []), ...cappedCount(Number(found?.n ?? 0), cap) };
  }
  const [rows, total] = await Promise.all([
    shape !== null && page.offset === 0
      ? preparedPatientPage(db, `${shape} ${ordering.key} ${page.limit}`, {
          where,
          orderBy: ordering.orderBy,
          limit: page.limit,
        }).execute(placeholders)
      : patientsForPresentation(db)
          .where(shape === null ? where : listWhere(scope, filters))
          .orderBy(...ordering.orderBy)
          .limit(page.limit)
          .offset(page.offset),
    fromTotals
      ? countFromTotals(db, 'patients', scope, filters.organizationId, filters.assigned)
      : shape !== null
        ? preparedPatientCount(db, shape, where)
            .execute(placeholders)
            .then(([r]) => r?.count ?? 0)
        : db.select({ count: count() }).from(patients).where(where).then(([r]) => r?.count ?? 0),
  ]);
  return { rows, count: total, capped: false };
}

/** One patient in the caller's scope (undefined outside it or missing). */
export async function findPatientInScope(db: DbOrTx, scope: Scope, id: number): Promise<PatientForPresentation | undefined> {
  const [row] = await patientsForPresentation(db)
    .where(and(eq(patients.id, id), orgScopeCondition(scope, patients.organizationId)))
    .limit(1);
  return row;
}

export async function updatePatient(db: DbOrTx, id: number, values: Partial<PatientInsert>): Promise<void> {
  await db.update(patients).set(values).where(eq(patients.id, id));
}

/**
 * Moves the patient and every scan, cervical exam and ORCA exam of it to `organizationId` and `technicianId`.
 * Returns how many of each moved.
 */
export async function transferPatient(
  db: DbOrTx,
  id: number,
  to: { organizationId: number; technicianId: number; by: number; at: Date },
): Promise<{ scans: number; cervical: number; orca: number; filePaths: string[] }> {
  const [patient] = await db
    .update(patients)
    .set({ organizationId: to.organizationId, technicianId: to.technicianId, modified: to.at, modifiedBy: to.by })
    .where(eq(patients.id, id))
    .returning();
  // One shape for the three tables (the shared exam columns); typed as scans for drizzle's sake.
  const move = async (examTable: typeof scans | typeof cervicalExams | typeof orcaExams) => {
    const table = examTable as typeof scans;
    const [row] = await db.select({ n: count() }).from(table).where(eq(table.patientId, id));
    await db
      .update(table)
      .set({ organizationId: to.organizationId, technicianId: to.technicianId, modified: to.at, modifiedBy: to.by })
      .where(eq(table.patientId, id));
    return row?.n ?? 0;
  };
  const moved = { scans: await move(scans), cervical: await move(cervicalExams), orca: await move(orcaExams) };
  // The files that follow the patient: its mammogram reports and its scans' reports, consent forms and assessments.
  const scanFiles = await db
    .select({ paths: scans.scanFilesPath })
    .from(scans)
    .where(eq(scans.patientId, id));
  const filePaths = [...(patient?.mostRecentMammogramReport ?? []), ...scanFiles.flatMap((s) => scanFilePaths(s.paths))];
  return { ...moved, filePaths };
}

/** Whether `userId` is a valid (enabled) user of one of `types` in organization `organizationId`. */
export async function isValidUserOf(
  db: DbOrTx,
  userId: number,
  organizationId: number,
  types: readonly (typeof users.userType.enumValues)[number][],
): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.organizationId, organizationId),
        eq(users.isValid, true),
        isNull(users.deletedAt),
        inArray(users.userType, [...types]),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type PatientReportRow = {
  id: number;
  firstName: string;
  lastName: string;
  mobile: string | null;
  deviceSerialNumber: string | null;
  organizationId: number | null;
  organizationName: string | null;
  technicianId: number | null;
  technicianFirstName: string | null;
  technicianLastName: string | null;
  dateTime: Date;
  created: Date;
};

/** The patient's examinations of one kind, newest first, at most `limit` (the transfer dialog's tables). */
export async function listPatientExams(
  db: DbOrTx,
  table: typeof scans | typeof cervicalExams | typeof orcaExams,
  patientId: number,
  limit: number,
): Promise<PatientReportRow[]> {
  return db
    .select({
      id: table.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      mobile: patients.mobile,
      deviceSerialNumber: table.deviceSerialNumber,
      organizationId: table.organizationId,
      organizationName: organizations.name,
      technicianId: table.technicianId,
      technicianFirstName: users.firstName,
      technicianLastName: users.lastName,
      dateTime: table.dateTime,
      created: table.created,
    })
    .from(table)
    .innerJoin(patients, eq(patients.id, table.patientId))
    .leftJoin(organizations, eq(organizations.id, table.organizationId))
    .leftJoin(users, eq(users.id, table.technicianId))
    .where(eq(table.patientId, patientId))
    .orderBy(desc(table.dateTime), desc(table.id))
    .limit(limit);
}
