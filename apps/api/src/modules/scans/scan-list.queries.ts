// Drizzle queries of the console's breast scan list (part 2 §2.7–2.9, §7): one filter builder shared by the page,
// its count, the map points, the CSV and the lookups, so every reader selects exactly the same scans.
// Every condition is on scans columns or an `IN (subquery)`, so the count needs no join and the planner can use
// the scans indexes (organization/date, technician/date, device/date, sensor, patient, parent, date).
import { and, asc, count, desc, eq, isNotNull, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TScanRow, TScanTechnicianType, TScanType } from '@sc/shared/scans';
import { parseScanIdLabel } from '@sc/shared/scans';
import { phoneSearchForm } from '@sc/shared/phone';
import { BREAST_TYPES, SCAN_ID_PREFIX } from '@sc/shared/constants';
import { asValue, literalLimit, placeholdersOf, preparedQueries, type Bind, type Db, type DbOrTx } from '../../db/client.ts';
import type { Readable } from 'node:stream';
import type { Pool as PgPool, PoolClient as PgPoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  devices,
  organizations,
  patients,
  references,
  reportLogs,
  scans,
  users,
} from '../../db/schema/index.ts';
import type { ScanFilesPath } from '../../db/schema/scans.ts';
import { csvCellSql, csvDateTimeSql } from '../../http/csv-stream.ts';
import { parseOrderingTerms } from '../../http/ordering.ts';
import type { PeriodRange } from '../../http/period.ts';
import { orgScopeCondition, type Scope } from '../../http/scope.ts';
import { patientSearchCondition } from '../patients/patients.queries.ts';
import { cappedCount, countUpToSql, pageStatement, scanHoursSum, splitIntoHours, totalsSum } from '../../db/list-counts.ts';
import { SEARCH_COUNT_AHEAD } from '@sc/shared/list';

/** The filters of `GET scan/` after validation and the role checks. */
export type ScanFilters = {
  range: PeriodRange;
  search?: string;
  organizationId?: number;
  deviceSerialNumber?: string;
  sensorSerialNumber?: string;
  technicianId?: number;
  technicianType?: TScanTechnicianType;
  scanType?: TScanType;
  isReplayAvailable?: boolean;
  isSurvivor?: boolean;
  isPositive?: boolean;
  leftFinding?: boolean;
  rightFinding?: boolean;
  hasSymptoms?: boolean;
  hasFamilyHistory?: boolean;
  /** true: duplicates (children) only; false: originals only. */
  isDuplicate?: boolean;
  /** true: with an organization; false: without. */
  hasOrganization?: boolean;
  ageMin?: number;
  ageMax?: number;
  patientId?: number;
  ids?: number[];
  /** The original with this id and its duplicates. */
  familyOf?: number;
};

/** A Postgres int[] literal as one parameter (a cluster may hold 100,000 ids: one parameter each would not fit). */
const intArray = (ids: readonly number[], bind: Bind) => sql`${bind('ids', `{${ids.join(',')}}`)}::int[]`;

/** http/period.ts periodCondition's rule (from inclusive, to exclusive), with bound values. */
const periodBounds = (column: AnyColumn, range: PeriodRange, bind: Bind) =>
  and(
    range.from ? sql`${column} >= ${bind('from', range.from.toISOString())}` : undefined,
    range.to ? sql`${column} < ${bind('to', range.to.toISOString())}` : undefined,
  );

const equals = (column: AnyColumn, name: string, value: unknown, bind: Bind) =>
  value === undefined ? undefined : sql`${column} = ${bind(name, value)}`;

/** `WHERE` of every scan reader: scope and filters. */
export function scanConditions(scope: Scope, f: ScanFilters, bind: Bind = asValue): SQL {
  const conditions: (SQL | undefined)[] = [
    orgScopeCondition(scope, scans.organizationId),
    periodBounds(scans.dateTime, f.range, bind),
    equals(scans.organizationId, 'organizationId', f.organizationId, bind),
    // The registry's spelling (uploads store it), so `?device=ibe1` finds IBE1 through the device/date index.
    f.deviceSerialNumber === undefined
      ? undefined
      : sql`${scans.deviceSerialNumber} = coalesce((select ${devices.serialNumber} from ${devices} where lower(${devices.serialNumber}) = lower(${bind('device', f.deviceSerialNumber)}) limit 1), ${bind('device', f.deviceSerialNumber)})`,
    equals(scans.sensorSerialNumber, 'sensor', f.sensorSerialNumber, bind),
    equals(scans.technicianId, 'technicianId', f.technicianId, bind),
    f.technicianType === undefined
      ? undefined
      : sql`${scans.technicianId} in (select ${users.id} from ${users} where ${users.userType} = ${bind('technicianType', f.technicianType)})`,
    equals(scans.scanType, 'scanType', f.scanType, bind),
    equals(scans.isReplayAvailable, 'isReplayAvailable', f.isReplayAvailable, bind),
    equals(scans.isSurvivor, 'isSurvivor', f.isSurvivor, bind),
    equals(scans.isPositive, 'isPositive', f.isPositive, bind),
    f.leftFinding === undefined
      ? undefined
      : f.leftFinding
        ? sql`cardinality(${scans.leftBreastFinding}) > 0`
        : sql`cardinality(${scans.leftBreastFinding}) = 0`,
    f.rightFinding === undefined
      ? undefined
      : f.rightFinding
        ? sql`cardinality(${scans.rightBreastFinding}) > 0`
        : sql`cardinality(${scans.rightBreastFinding}) = 0`,
    equals(scans.hasSymptoms, 'hasSymptoms', f.hasSymptoms, bind),
    equals(scans.hasFamilyHistory, 'hasFamilyHistory', f.hasFamilyHistory, bind),
    f.isDuplicate === undefined
      ? undefined
      : f.isDuplicate
        ? isNotNull(scans.parentScanId)
        : isNull(scans.parentScanId),
    f.hasOrganization === undefined
      ? undefined
      : f.hasOrganization
        ? isNotNull(scans.organizationId)
        : isNull(scans.organizationId),
    f.ageMin === undefined && f.ageMax === undefined
      ? undefined
      : sql`${scans.patientId} in (select ${patients.id} from ${patients} where ${and(
          f.ageMin === undefined ? undefined : sql`${patients.age} >= ${bind('ageMin', f.ageMin)}`,
          f.ageMax === undefined ? undefined : sql`${patients.age} <= ${bind('ageMax', f.ageMax)}`,
        )})`,
    equals(scans.patientId, 'patientId', f.patientId, bind),
    f.ids === undefined ? undefined : sql`${scans.id} = any(${intArray(f.ids, bind)})`,
    f.familyOf === undefined
      ? undefined
      : sql`(${scans.id} = ${bind('familyOf', f.familyOf)} or ${scans.parentScanId} = ${bind('familyOf', f.familyOf)})`,
    searchScans(f.search, bind),
  ];
  return and(...conditions) ?? sql`true`;
}

/**
 * Search: patient name, mobile or e-mail (patientSearchCondition: the patients' trigram index), or the scan's
 * ID as the list shows it ('S-123', '123').
 */
function searchScans(term: string | undefined, bind: Bind): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  // patient_search (migration 0018): patients.search_text in a narrow table, cheap to scan for a broad term.
  const byPatient = sql`${scans.patientId} in (select patient_search.patient_id from patient_search where ${patientSearchCondition(trimmed, bind, sql`patient_search.search_text`)})`;
  const id = parseScanIdLabel(trimmed);
  return id === null ? byPatient : sql`(${byPatient} or ${scans.id} = ${bind('searchId', id)})`;
}

const dup = alias(scans, 'dup');
const parentScan = alias(scans, 'parent_scan');

const jsonbOr = (column: AnyColumn, key: string) => sql`coalesce(${column}->${sql.raw(`'${key}'`)}, '[]'::jsonb)`;

/**
 * A row of the list (and the detail) as JSON in the API's names, built by the database: the §3 Scan as presentScan
 * writes it (the webhook's body; scan-list.test.ts compares the two for every fixture scan), with the row's joins:
 * organization_data {id, name}, technician_data with user_type, device_id (the registry id of the device serial) and
 * duplicates_count. The fields shared rules derive (display_id, review) are added by presentScanRow, which also writes
 * the timestamps as toISOString does (JSON has them as '…T09:05:00.123456+00:00'; to_char cost a quarter of the
 * statement). Parsing one JSON value per row instead of ~90 columns, mapping and presenting them is about half the
 * list's CPU in Node.
 * json_build_object takes at most 100 arguments: this is 40 pairs.
 */
const scanRowJson = sql`json_build_object(
  'id', ${scans.id},
  'patient', case when ${patients.id} is null then null else json_build_object(
    'id', ${patients.id},
    'first_name', ${patients.firstName},
    'last_name', ${patients.lastName},
    'mobile', ${patients.mobile},
    'age', ${patients.age},
    'date_of_birth', ${patients.dateOfBirth},
    'email', ${patients.email},
    'mobile_country_code', ${patients.mobileCountryCode},
    'clinic_patient_id', ${patients.clinicPatientId},
    'physician_name', ${patients.physicianName},
    'physician_email', ${patients.physicianEmail},
    'reference_name', ${references.name},
    'created', ${patients.created},
    'organization', ${patients.organizationId},
    'most_recent_mammogram_report', ${patients.mostRecentMammogramReport}
  ) end,
  'first_name', ${patients.firstName},
  'device_serial_number', ${scans.deviceSerialNumber},
  'sensor_serial_number', ${scans.sensorSerialNumber},
  'tablet_serial_number', ${scans.tabletSerialNumber},
  'hardware_version', ${scans.hardwareVersion},
  'software_version', ${scans.softwareVersion},
  'organization', ${scans.organizationId},
  'organization_name', ${organizations.name},
  'organization_data', case when ${scans.organizationId} is not null and ${organizations.name} is not null
    then json_build_object('id', ${scans.organizationId}, 'name', ${organizations.name}) end,
  'technician_data', case when ${users.id} is null then null else json_build_object(
    'id', ${users.id},
    'first_name', ${users.firstName},
    'last_name', ${users.lastName},
    'username', ${users.username},
    'user_type', ${users.userType}
  ) end,
  'date_time', ${scans.dateTime},
  'created', ${scans.created},
  'scan_type', ${scans.scanType},
  'parent_scan_id', ${scans.parentScanId},
  'is_replay_available', ${scans.isReplayAvailable},
  'scan_files_path', json_build_object(
    'reports', ${jsonbOr(scans.scanFilesPath, 'reports')},
    'assessment_files', ${jsonbOr(scans.scanFilesPath, 'assessment_files')},
    'consent_form', ${jsonbOr(scans.scanFilesPath, 'consent_form')}
  ),
  'assessment_result', ${scans.assessmentResult},
  'assessment_approved', ${scans.assessmentApproved},
  'training_scan_observation', ${scans.trainingScanObservation},
  'breast_type', ${scans.breastType},
  'left_breast_finding', ${scans.leftBreastFinding},
  'right_breast_finding', ${scans.rightBreastFinding},
  'is_positive', coalesce(${scans.isPositive}, cardinality(${scans.leftBreastFinding}) > 0 or cardinality(${scans.rightBreastFinding}) > 0),
  'notes', ${scans.notes},
  'is_survivor', ${scans.isSurvivor},
  'has_family_history', ${scans.hasFamilyHistory},
  'has_symptoms', ${scans.hasSymptoms},
  'send_report_to_patient', ${scans.sendReportToPatient},
  'sent_report_to_patient', ${scans.sentReportToPatient},
  'next_appointment_date', ${scans.nextAppointmentDate},
  'under_bust', ${scans.underBust},
  'over_bust', ${scans.overBust},
  'latitude', ${scans.latitude},
  'longitude', ${scans.longitude},
  'local_db_id', ${scans.localDbId},
  'metadata', ${scans.metadata},
  'device_id', ${devices.id},
  'duplicates_count', (select count(*)::int from ${scans} as ${sql.identifier('dup')} where ${dup.parentScanId} = ${scans.id})
)`;

/** A list row as the database builds it (scanRowJson): TScanRow without the fields shared rules derive. */
export type ScanRowData = Omit<TScanRow, 'display_id' | 'review'>;

/** `fields` of the scans with the tables a row reads (scanRowJson). */
function selectRows<T extends Record<string, unknown>>(db: DbOrTx, fields: T) {
  return db
    .select(fields as never)
    .from(scans)
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .leftJoin(references, eq(references.id, patients.referenceId))
    .leftJoin(organizations, eq(organizations.id, scans.organizationId))
    .leftJoin(users, eq(users.id, scans.technicianId))
    .leftJoin(devices, eq(devices.serialNumber, scans.deviceSerialNumber));
}

/** The table each ordering field of another table reads (scanOrderingFields). */
const ORDERING_JOINS: Record<string, 'patients' | 'organizations' | 'users'> = {
  first_name: 'patients',
  last_name: 'patients',
  organization_name: 'organizations',
  technician_name: 'users',
};

/**
 * Scan ids, joined only with the tables the ordering `key` (a validated `ordering`, 'first_name,-id') reads: a join
 * PostgreSQL would drop still costs it planning on every per-call page.
 */
function selectIds(db: DbOrTx, key: string) {
  const tables = new Set(parseOrderingTerms(key, scanOrderingFields).map((term) => ORDERING_JOINS[term.field]));
  let query = db.select({ id: scans.id }).from(scans).$dynamic();
  if (tables.has('patients')) query = query.leftJoin(patients, eq(patients.id, scans.patientId));
  if (tables.has('organizations')) query = query.leftJoin(organizations, eq(organizations.id, scans.organizationId));
  if (tables.has('users')) query = query.leftJoin(users, eq(users.id, scans.technicianId));
  return query;
}

/** Ordering fields of the list (SCAN_ORDERING_FIELDS). */
export const scanOrderingFields = {
  id: scans.id,
  date_time: scans.dateTime,
  created: scans.created,
  first_name: patients.firstName,
  last_name: patients.lastName,
  device_serial_number: scans.deviceSerialNumber,
  sensor_serial_number: scans.sensorSerialNumber,
  organization_name: organizations.name,
  technician_name: sql`(${users.firstName} || ' ' || ${users.lastName})`,
  scan_type: scans.scanType,
};

/**
 * The rows of a page's scans in the order of `ids`, as one JSON array (one prepared statement for every page of every
 * list, planned once per connection). A scan deleted between the two reads drops out of the page.
 */
const preparedRowsByIds = preparedQueries('scan_list_rows', (db, name) =>
  selectRows(db, {
    rows: sql<ScanRowData[] | null>`json_agg(${scanRowJson} order by array_position(${sql.placeholder('ids')}::int[], ${scans.id}))`,
  })
    // The ids through a subquery, which hides their values from the planner: PostgreSQL then keeps the generic plan
    // instead of planning the row's joins on every page (it judged each custom plan for the exact ids cheaper).
    .where(sql`${scans.id} = any((select ${sql.placeholder('ids')}::int[])::int[])`)
    .prepare(name),
);

async function rowsInOrder(db: Db, ids: readonly number[]): Promise<ScanRowData[]> {
  if (ids.length === 0) return [];
  const [result] = (await preparedRowsByIds(db, 'rows', undefined).execute({ ids: `{${ids.join(',')}}` })) as {
    rows: ScanRowData[] | null;
  }[];
  return result?.rows ?? [];
}

/**
 * Filters that the per-organization totals answer: the scope, the organization, assigned/unassigned and the period
 * (list_counts of migration 0009 without one, the hourly scan_hour_counts of 0017 with one).
 */
const COUNTABLE_FROM_TOTALS: ReadonlySet<keyof ScanFilters> = new Set(['range', 'organizationId', 'hasOrganization']);

/** Whether the count is a sum of per-organization totals: no filter but the organization's and the period. */
export function countsFromTotals(f: ScanFilters): boolean {
  return (Object.keys(f) as (keyof ScanFilters)[]).every((k) => f[k] === undefined || COUNTABLE_FROM_TOTALS.has(k));
}

/** A Bind whose placeholder names start with `prefix` (a filter bound again with other values). */
const prefixed =
  (bind: Bind, prefix: string): Bind =>
  (name, value) =>
    bind(`${prefix}${name}`, value);

/**
 * The list's count as a scalar subquery, with what its SQL text depends on beyond the filters' shape (`kind`):
 * - a text search with `searchCap` (the list's: SEARCH_COUNT_AHEAD past the page's first row): its rows up to
 *   `cap` + 1 (cappedCount reads the result);
 * - filters the totals answer (countsFromTotals): all time from list_counts; a period as the hourly totals of its
 *   whole UTC hours plus a count of the scans in its partial edge hours (a local midnight at +5:30 is half past an
 *   hour), read from the organization/date index;
 * - otherwise (and a period inside one hour) a count of the rows.
 */
function scanCountSql(
  scope: Scope,
  f: ScanFilters,
  where: SQL,
  bind: Bind,
  searchCap?: number,
): { sql: SQL; kind: string; cap?: number } {
  if (f.search?.trim() && searchCap !== undefined) {
    return { sql: countUpToSql(scans, where, searchCap, bind), kind: 'capped', cap: searchCap };
  }
  if (countsFromTotals(f)) {
    if (!f.range.from && !f.range.to) {
      return { sql: totalsSum('scans', scope, f.organizationId, f.hasOrganization, bind), kind: 'totals' };
    }
    const split = splitIntoHours(f.range);
    if (split !== null) {
      const parts = [
        scanHoursSum(scope, f.organizationId, f.hasOrganization, split.hours, bind),
        ...split.edges.map(
          (range, i) =>
            sql`(select count(*) from ${scans} where ${scanConditions(scope, { ...f, range }, prefixed(bind, `edge${i}_`))})`,
        ),
      ];
      return { sql: sql`(${sql.join(parts, sql` + `)})`, kind: `hours+${split.edges.length}` };
    }
  }
  return { sql: sql`(select count(*) from ${scans} where ${where})`, kind: 'rows' };
}

/** The exact count of the scans the filters select (a text search's too), as the list counts it. */
export async function countScans(db: Db, scope: Scope, f: ScanFilters): Promise<number> {
  const count = scanCountSql(scope, f, scanConditions(scope, f), asValue);
  const result = await db.execute(sql`select ${count.sql}::int as n`);
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
}

/**
 * Filters whose subquery's best plan depends on the value (a patient search, a map cluster's ids, the age range, the
 * technician type): lists with any of them are planned on each call, never as a prepared statement's generic plan.
 */
const PLANNED_PER_CALL: readonly (keyof ScanFilters)[] = ['search', 'ids', 'ageMin', 'ageMax', 'technicianType'];

/**
 * The shape of the list's SQL for these filters (what changes its text: the scope with its organizations, which
 * filters are set, the filters whose value is written as SQL), or null when the list is planned per call.
 */
export function scanListShape(scope: Scope, f: ScanFilters): string | null {
  if (PLANNED_PER_CALL.some((k) => f[k] !== undefined)) return null;
  return scanListTextShape(scope, f);
}

/** What changes the text of the list's SQL (scanListShape's key, for every filter, a search's kind included). */
function scanListTextShape(scope: Scope, f: ScanFilters): string {
  const set = (Object.keys(f) as (keyof ScanFilters)[]).filter((k) => k !== 'range' && f[k] !== undefined).sort();
  const term = f.search?.trim();
  return JSON.stringify([
    scope,
    f.range.from !== undefined,
    f.range.to !== undefined,
    set,
    f.leftFinding ?? null,
    f.rightFinding ?? null,
    f.isDuplicate ?? null,
    f.hasOrganization ?? null,
    // searchScans: a term that reads as a scan ID also matches that scan.
    term ? parseScanIdLabel(term) !== null : null,
    // patientSearchCondition: a term that reads as a phone number is also looked for in its stored form.
    term ? phoneSearchForm(term) !== null : null,
  ]);
}

type ScanPageArgs = { where: SQL; ordering: { key: string; orderBy: SQL[] }; limit: number; count: SQL };

/** The page's ids and the count (pageStatement); `fromOffset`: the page starts at the `offset` placeholder. */
function scanPageStatement(db: Db, a: ScanPageArgs, fromOffset: boolean) {
  const ids = selectIds(db, a.ordering.key).where(a.where).orderBy(...a.ordering.orderBy).limit(literalLimit(a.limit));
  return pageStatement(db, fromOffset ? ids.offset(sql.placeholder('offset')) : ids, a.count);
}

const preparedScanPage = preparedQueries('scan_list_page', (db, name, a: ScanPageArgs) =>
  scanPageStatement(db, a, false).prepare(name),
);

/**
 * Pages planned on each call (a text search, a cluster's ids, an age range, a later page): built once per text shape,
 * sent unnamed so PostgreSQL plans them for the values (preparedQueries `plannedEachCall`).
 */
const perCallScanPage = preparedQueries(
  'scan_list_page_per_call',
  (db, name, a: ScanPageArgs) => scanPageStatement(db, a, true).prepare(name),
  { plannedEachCall: true },
);

/**
 * A page of the list and its count: exact, except a text search's, which counts up to SEARCH_COUNT_AHEAD rows past
 * the page's first (`capped` when more match). Two statements: the page's ids with the count (pageStatement), then
 * their rows (rowsInOrder). The filters, ordering and page run on the scans, joined only with the tables the ordering
 * reads, so planning them is cheap; the rows are one prepared statement for every page.
 * A first page whose filters have a shape (scanListShape) is a named prepared statement, one per shape, count kind,
 * ordering and page size: built once, planned once per connection (the generic plans of these shapes use the same
 * indexes as per-call plans for the busiest and the emptiest organization, over a day or all time). Other pages and
 * filters are built once per text shape and planned per call (perCallScanPage).
 */
export async function listScanPage(
  db: Db,
  scope: Scope,
  f: ScanFilters,
  ordering: { key: string; orderBy: SQL[] },
  limit: number,
  offset: number,
): Promise<{ rows: ScanRowData[]; count: number; capped: boolean }> {
  const shape = offset === 0 ? scanListShape(scope, f) : null;
  const { bind, values } = placeholdersOf();
  const where = scanConditions(scope, f, bind);
  // Only a text search's count is capped (a shape has none: scanListShape).
  const count = scanCountSql(scope, f, where, bind, offset + SEARCH_COUNT_AHEAD);
  const args = { where, ordering, limit, count: count.sql };
  const [page] =
    shape === null
      ? await perCallScanPage(db, `${scanListTextShape(scope, f)} ${count.kind} ${ordering.key} ${limit}`, args).execute(
          { ...values, offset },
        )
      : await preparedScanPage(db, `${shape} ${count.kind} ${ordering.key} ${limit}`, args).execute(values);
  const rows = await rowsInOrder(db, page?.ids ?? []);
  const n = Number(page?.n ?? 0);
  return { rows, ...(count.cap === undefined ? { count: n, capped: false } : cappedCount(n, count.cap)) };
}

/** One scan in scope as a list row (scanRowJson), with its patient's gender and its parent's type (a duplicate's link). */
export async function findScanRow(db: DbOrTx, scope: Scope, id: number) {
  const [found] = (await selectRows(db, { row: sql<ScanRowData>`${scanRowJson}`, gender: patients.gender })
    .where(and(eq(scans.id, id), orgScopeCondition(scope, scans.organizationId)))
    .limit(1)) as { row: ScanRowData; gender: string | null }[];
  if (!found) return null;
  let parent: { id: number; scanType: TScanType } | null = null;
  if (found.row.parent_scan_id !== null) {
    const [p] = await db
      .select({ id: parentScan.id, scanType: parentScan.scanType })
      .from(parentScan)
      .where(eq(parentScan.id, found.row.parent_scan_id))
      .limit(1);
    parent = p ?? null;
  }
  return { row: found.row, gender: found.gender, parent };
}

/** The bare scan in scope (transfer, delete). */
export async function findScanInScope(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .select()
    .from(scans)
    .where(and(eq(scans.id, id), orgScopeCondition(scope, scans.organizationId)))
    .limit(1);
  return row ?? null;
}

/** A valid user of one of `types` in organization `organizationId` (transfer target), or null. */
export async function findTechnicianOf(
  db: DbOrTx,
  technicianId: number,
  organizationId: number,
  types: readonly string[],
) {
  const [row] = await db
    .select({ id: users.id, userType: users.userType })
    .from(users)
    .where(
      and(
        eq(users.id, technicianId),
        eq(users.organizationId, organizationId),
        eq(users.isValid, true),
        sql`${users.userType} = any(${`{${types.join(',')}}`}::text[])`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Moves a scan (and, for an original, its duplicates) to another organization and technician. */
export async function transferScanFamily(
  tx: DbOrTx,
  id: number,
  organizationId: number,
  technicianId: number,
  by: number,
  at: Date,
): Promise<{ id: number; scanFilesPath: ScanFilesPath }[]> {
  const rows = await tx
    .update(scans)
    .set({ organizationId, technicianId, modified: at, modifiedBy: by })
    .where(sql`(${scans.id} = ${id} or ${scans.parentScanId} = ${id})`)
    .returning();
  return rows.map((r) => ({ id: r.id, scanFilesPath: r.scanFilesPath }));
}

// ---- CSV -----------------------------------------------------------------------------------------------------------

/** One line of scan_details.csv: the §9 cells in SCAN_CSV_COLUMNS order, formatted by the database. */
export type ScanCsvRecord = (string | null)[];

const textCase = (column: AnyColumn, labels: Record<string | number, string>, otherwise: SQL) =>
  sql`(case ${column} ${sql.join(
    Object.entries(labels).map(([value, label]) => sql`when ${sql.raw(`'${value}'`)} then ${sql.raw(`'${label}'`)}`),
    sql` `,
  )} else ${otherwise} end)`;
const yesNo = (condition: SQL) => sql<string>`(case when ${condition} then 'Yes' else 'No' end)`;

/**
 * The §9 cells as text, formatted in SQL so the server only passes strings to the CSV writer (no Date, array or
 * JSON parsing per row): ID with its prefix (SCAN_ID_PREFIX), Date Time in the reader's zone (csvDateTimeSql),
 * the organization's name, breast type names (BREAST_TYPES), Is Positive = a finding on either side when the device
 * sent no flag, findings joined with '; ', notes with commas and line breaks replaced by spaces (csvNotes), flags as
 * Yes/No.
 */
const csvCells = (timezone: string) => ({
  firstName: patients.firstName,
  lastName: patients.lastName,
  age: sql<string | null>`${patients.age}::text`,
  dateOfBirth: sql<string | null>`${patients.dateOfBirth}::text`,
  mobile: patients.mobile,
  email: patients.email,
  displayId: sql<string>`${textCase(scans.scanType, SCAN_ID_PREFIX, sql`''`)} || ${scans.id}::text`,
  physicianName: patients.physicianName,
  localTime: csvDateTimeSql(scans.dateTime, timezone),
  organizationName: organizations.name,
  technicianName: sql<string | null>`(${users.firstName} || ' ' || ${users.lastName})`,
  breastType: sql<string | null>`${textCase(scans.breastType, BREAST_TYPES, sql`${scans.breastType}::text`)}`,
  isPositive: yesNo(
    sql`coalesce(${scans.isPositive}, cardinality(${scans.leftBreastFinding}) > 0 or cardinality(${scans.rightBreastFinding}) > 0)`,
  ),
  left: sql<string>`array_to_string(${scans.leftBreastFinding}, '; ')`,
  right: sql<string>`array_to_string(${scans.rightBreastFinding}, '; ')`,
  // csvNotes: commas, then CR LF, CR and LF each as one space (plain replace: a regular expression per row is slower).
  notes: sql<string>`replace(replace(replace(replace(coalesce(${scans.notes}->>'message', ''), ',', ' '), e'\\r\\n', ' '), e'\\r', ' '), e'\\n', ' ')`,
  isSurvivor: yesNo(sql`${scans.isSurvivor}`),
  hasFamilyHistory: yesNo(sql`${scans.hasFamilyHistory}`),
  hasSymptoms: yesNo(sql`${scans.hasSymptoms}`),
  deviceSerialNumber: scans.deviceSerialNumber,
  sensorSerialNumber: scans.sensorSerialNumber,
  softwareVersion: scans.softwareVersion,
  referenceName: references.name,
});
const CSV_CELL_KEYS = Object.keys(csvCells('UTC')) as (keyof ReturnType<typeof csvCells>)[];

function csvQuery(db: Db, scope: Scope, f: ScanFilters, timezone: string, keyset: SQL | undefined) {
  return db
    .select({ ...csvCells(timezone), id: scans.id, dateTime: scans.dateTime })
    .from(scans)
    .leftJoin(organizations, eq(organizations.id, scans.organizationId))
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .leftJoin(references, eq(references.id, patients.referenceId))
    .leftJoin(users, eq(users.id, scans.technicianId))
    .where(and(scanConditions(scope, f), keyset))
    .orderBy(desc(scans.dateTime), desc(scans.id));
}

/**
 * One keyset batch of the CSV, newest first (the list's default order): rows before (dateTime, id). The bound
 * `date_time <= t` lets the date indexes serve the batch; the row comparison breaks ties. Used on PGlite (one
 * connection: a long COPY would hold every other request) and for a single scan.
 */
export async function listScanCsvBatch(
  db: Db,
  scope: Scope,
  f: ScanFilters,
  timezone: string,
  before: { dateTime: Date; id: number } | null,
  limit: number,
): Promise<{ records: ScanCsvRecord[]; last: { dateTime: Date; id: number } | null }> {
  const keyset = before
    ? sql`${scans.dateTime} <= ${before.dateTime.toISOString()} and (${scans.dateTime}, ${scans.id}) < (${before.dateTime.toISOString()}::timestamptz, ${before.id})`
    : undefined;
  const rows = await csvQuery(db, scope, f, timezone, keyset).limit(limit);
  const lastRow = rows.at(-1);
  return {
    records: rows.map((row) => CSV_CELL_KEYS.map((key) => row[key])),
    last: lastRow ? { dateTime: lastRow.dateTime, id: lastRow.id } : null,
  };
}

/** work_mem of a CSV COPY's transaction (at most SCAN_CSV_MAX_COPIES at once). */
const CSV_WORK_MEM = '64MB';

/** A bound value written into the statement as a literal (COPY takes no parameters). */
function sqlLiteral(client: PgPoolClient, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return `(${value})`;
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  return client.escapeLiteral(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The whole CSV written by PostgreSQL (`COPY (…) TO STDOUT WITH (FORMAT csv, HEADER)`) on a pool connection of its
 * own: the database formats the lines, the server only forwards bytes (several times faster than stringifying each
 * row in Node), and pg-copy-streams pauses the connection while the client reads, so memory stays flat. The lines
 * are what csvFile writes for the same cells: header `headers`, a cell a spreadsheet would take for a formula
 * prefixed with an apostrophe (csvCellSql), a field quoted when it holds a comma, a quote or a line break (quotes
 * doubled), an empty or NULL cell written as nothing (`nullif(…, '')`: COPY would quote an empty string), newline
 * after every record. The statement is the keyset reader's (same conditions and order) with
 * the bound values written in as literals. The connection is released when the stream ends, fails or is destroyed
 * (an abandoned download closes the connection, which stops the statement).
 */
export async function copyScanCsv(
  pool: PgPool,
  db: Db,
  scope: Scope,
  f: ScanFilters,
  timezone: string,
  headers: readonly string[],
): Promise<Readable> {
  const cells = csvCells(timezone);
  const selection = Object.fromEntries(
    CSV_CELL_KEYS.map((key, i) => [
      key,
      sql<string | null>`nullif(${csvCellSql(cells[key])}, '')`.as(headers[i] ?? key),
    ]),
  );
  const query = db
    .select(selection)
    .from(scans)
    .leftJoin(organizations, eq(organizations.id, scans.organizationId))
    .leftJoin(patients, eq(patients.id, scans.patientId))
    .leftJoin(references, eq(references.id, patients.referenceId))
    .leftJoin(users, eq(users.id, scans.technicianId))
    .where(scanConditions(scope, f))
    .orderBy(desc(scans.dateTime), desc(scans.id))
    .toSQL();
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  try {
    const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(client, query.params[Number(n) - 1]));
    await client.query('BEGIN READ ONLY');
    // One in-memory hash of the patients and fewer sort runs than the default 4 MB (this transaction only).
    await client.query(`SET LOCAL work_mem = '${CSV_WORK_MEM}'`);
    const stream = client.query(copyTo(`COPY (${text}) TO STDOUT WITH (FORMAT csv, HEADER true)`));
    let ended = false;
    stream.once('end', () => {
      ended = true;
      client.query('COMMIT').then(
        () => release(),
        (error: unknown) => release(error instanceof Error ? error : new Error(String(error))),
      );
    });
    stream.once('error', (error) => release(error));
    stream.once('close', () => {
      if (!ended) release(new Error('scan CSV copy stopped before its end'));
    });
    return stream;
  } catch (error) {
    release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

// ---- Map points ----------------------------------------------------------------------------------------------------

// 12 bytes a scan: int4 id, float4 latitude, float4 longitude, big-endian as int4send/float4send write them (the
// service swaps them to little-endian). No ORDER BY anywhere: the map does not care about the order of its points.
const PACKED_POINT = sql`int4send(${scans.id}) || float4send(${scans.latitude}::float4) || float4send(${scans.longitude}::float4)`;
const LOCATED = and(isNotNull(scans.latitude), isNotNull(scans.longitude));

/** A bound of a batch of map points: a scan time as PostgreSQL's text (to the microsecond, which a Date would drop). */
export type PointsBound = { at: string; inclusive: boolean };

const lowerBound = (b: PointsBound | null): SQL | undefined =>
  b === null ? undefined : (b.inclusive ? sql`${scans.dateTime} >= ${b.at}::timestamptz` : sql`${scans.dateTime} > ${b.at}::timestamptz`);
const upperBound = (b: PointsBound | null): SQL | undefined =>
  b === null ? undefined : (b.inclusive ? sql`${scans.dateTime} <= ${b.at}::timestamptz` : sql`${scans.dateTime} < ${b.at}::timestamptz`);

/**
 * The time of the `limit`-th located scan at or after `lower` (date order), or null when fewer are left: where the
 * next batch of points ends. A range of scans_points_date_idx (migration 0021), index-only when scope, organization
 * and period are the only filters.
 */
export async function findScanPointsCut(
  db: Db,
  scope: Scope,
  f: ScanFilters,
  lower: PointsBound | null,
  limit: number,
): Promise<string | null> {
  const [row] = await db
    .select({ at: sql<string>`${scans.dateTime}::text` })
    .from(scans)
    .where(and(scanConditions(scope, f), LOCATED, lowerBound(lower)))
    .orderBy(asc(scans.dateTime))
    .offset(limit - 1)
    .limit(1);
  return row?.at ?? null;
}

/** The map points of the located scans the filters select between `lower` and `upper`, packed; null if none. */
export async function packScanPoints(
  db: Db,
  scope: Scope,
  f: ScanFilters,
  lower: PointsBound | null,
  upper: PointsBound | null,
): Promise<Uint8Array | null> {
  const [row] = await db
    .select({ bytes: sql<Uint8Array | string | null>`string_agg(${PACKED_POINT}, ''::bytea)` })
    .from(scans)
    .where(and(scanConditions(scope, f), LOCATED, lowerBound(lower), upperBound(upper)));
  return row?.bytes ? toBytes(row.bytes) : null;
}

/**
 * Whether the scope, an organization and a period are the only filters: then the period's whole UTC days are read
 * from scan_point_days (migration 0021), packed in advance, and only its partial edge days from the scans.
 */
export function isPointDaysFilter(f: ScanFilters): boolean {
  return Object.entries(f).every(
    ([key, value]) =>
      key === 'range' ||
      key === 'organizationId' ||
      value === undefined ||
      // A blank search filters nothing (searchScans).
      (key === 'search' && typeof value === 'string' && value.trim() === ''),
  );
}

const pointDaysWhere = (scope: Scope, organizationId: number | undefined) =>
  and(
    orgScopeCondition(scope, sql`scan_point_days.organization_id`),
    organizationId === undefined ? undefined : sql`scan_point_days.organization_id = ${organizationId}`,
  );

/** The first and last UTC day (YYYY-MM-DD) with packed points in scope, or null when there are none. */
export async function findScanPointDays(
  db: Db,
  scope: Scope,
  organizationId: number | undefined,
): Promise<{ first: string; last: string } | null> {
  const result = await db.execute(
    sql`select min(day)::text as first, max(day)::text as last from scan_point_days where ${pointDaysWhere(scope, organizationId)}`,
  );
  const row = result.rows[0] as { first: string | null; last: string | null } | undefined;
  return row?.first && row.last ? { first: row.first, last: row.last } : null;
}

/** The packed points of the UTC days from `fromDay` (inclusive) to `toDay` (exclusive) in scope; null if none. */
export async function packScanPointDays(
  db: Db,
  scope: Scope,
  organizationId: number | undefined,
  fromDay: string,
  toDay: string,
): Promise<Uint8Array | null> {
  const result = await db.execute(
    sql`select string_agg(points, ''::bytea) as bytes from scan_point_days
        where day >= ${fromDay}::date and day < ${toDay}::date and ${pointDaysWhere(scope, organizationId)}`,
  );
  const row = result.rows[0] as { bytes: Uint8Array | string | null } | undefined;
  return row?.bytes && row.bytes.length > 0 ? toBytes(row.bytes) : null;
}

/** node-postgres gives a Buffer for bytea, PGlite a Uint8Array; a hex string if a driver leaves it unparsed. */
function toBytes(value: Uint8Array | string): Uint8Array {
  if (typeof value !== 'string') return value;
  return Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex');
}

// ---- Lookups -------------------------------------------------------------------------------------------------------

/** Distinct values of a serial column among the scans in scope, starting with `prefix` (any case), sorted. */
export async function distinctSerials(
  db: Db,
  scope: Scope,
  column: 'sensor' | 'device',
  prefix: string | undefined,
  organizationId: number | undefined,
  limit: number,
): Promise<string[]> {
  const col = column === 'sensor' ? scans.sensorSerialNumber : scans.deviceSerialNumber;
  const rows = await db
    .selectDistinct({ value: col })
    .from(scans)
    .where(
      and(
        orgScopeCondition(scope, scans.organizationId),
        organizationId === undefined ? undefined : eq(scans.organizationId, organizationId),
        isNotNull(col),
        prefix ? sql`${col} ilike ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
      ),
    )
    .orderBy(asc(col))
    .limit(limit);
  return rows.map((r) => r.value).filter((v): v is string => v !== null);
}

// ---- Report log ----------------------------------------------------------------------------------------------------

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

export const reportLogOrderingFields = {
  id: reportLogs.id,
  created: reportLogs.created,
  api: reportLogs.api,
  user_type: reportLogs.userType,
};

export async function listReportLogs(
  db: Db,
  where: SQL | undefined,
  orderBy: SQL[],
  limit: number,
  offset: number,
) {
  const rows = await db
    .select({
      log: reportLogs,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username },
    })
    .from(reportLogs)
    .leftJoin(users, eq(users.id, reportLogs.userId))
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
  const [total] = await db
    .select({ count: count() })
    .from(reportLogs)
    .leftJoin(users, eq(users.id, reportLogs.userId))
    .where(where);
  return { rows, count: total?.count ?? 0 };
}

export const reportLogColumns = {
  api: reportLogs.api,
  created: reportLogs.created,
  userId: reportLogs.userId,
  userType: reportLogs.userType,
};
export const reportLogUserSearch = sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.username})`;
