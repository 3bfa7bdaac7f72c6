// Patients (part 2 §3, §5): creating a patient record. Today's caller is the device upload (`POST patient/` from a
// technician's device, issue 8); the console's patient dialog reuses `createPatientRecord` with the organization
// and technician its role may choose (part 2 §5–6), resolved by its own use case before calling it.
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';
import { invalidPk } from '@sc/shared/devices';
import type { TPaginated } from '@sc/shared/list';
import {
  PATIENT_DEFAULT_ORDERING,
  PATIENT_MESSAGES,
  PATIENT_REPORTS_LIMIT,
  PATIENT_TECHNICIAN_TYPES,
  TRANSFER_TECHNICIAN_TYPES,
  canPatient,
  checkPatientRecord,
  hasFixedPatientOrganization,
  todayIso,
  type TPatient,
  type TPatientAction,
  type TPatientCreate,
  type TPatientListQuery,
  type TPatientPatch,
  type TPatientReports,
  type TPatientSaved,
  type TPatientTransfer,
  type TPatientUpload,
} from '@sc/shared/patients';
import { SCAN_FILE_FOLDERS } from '@sc/shared/scans';
import type { AppContext } from '../../app.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { cervicalExams, orcaExams, scans } from '../../db/schema/index.ts';
import { auditActor, auditChanges } from '../../services/audit.service.ts';
import type { Actor, RequestMeta } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, badRequest, fieldError, notFound } from '../../http/errors.ts';
import { parseOrdering } from '../../http/ordering.ts';
import { paginate, toPageParams } from '../../http/pagination.ts';
import { requestPeriod } from '../../http/period.ts';
import { isInScope, resolveScope, type Scope } from '../../http/scope.ts';
import { assertOwnFiles, invalidReference, resolveUploader } from '../uploads/device-uploader.ts';
import { moveCasesWithPatient } from '../follow-up/follow-up-opening.ts';
import { runIdempotent, type IdempotentAnswer } from '../uploads/idempotency.ts';
import { touchLastSync } from '../scans/scans.queries.ts';
import { presentPatient, presentPatientReport } from './patients.presenter.ts';
import {
  findPatientForPresentation,
  findPatientInScope,
  insertPatient,
  isActiveReferenceOf,
  isValidUserOf,
  languageCodeExists,
  listPatientExams,
  listPatients as queryPatients,
  patientOrderingFields,
  transferPatient as movePatient,
  updatePatient,
  type PatientFilters,
  type PatientForPresentation,
  type PatientRow,
} from './patients.queries.ts';
import { moveFiles } from '../scan-files/scan-files.service.ts';
import { moveToTrash } from '../trash/trash.service.ts';
import { readerFor } from '../../db/replica.ts';

export type PatientsContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;

export const PATIENT_AUDIT_ACTIONS = { uploaded: 'patient.uploaded' } as const;

/** Who a new patient belongs to, decided by the use case (device: the uploader; console: the chosen ones). */
export type PatientOwner = { organizationId: number; technicianId: number };

/** The record fields every create sends (the shared `patientFields`, validated and normalised). */
export type PatientRecord = Pick<
  TPatientUpload,
  | 'first_name'
  | 'last_name'
  | 'age'
  | 'date_of_birth'
  | 'email'
  | 'gender'
  | 'mobile'
  | 'mobile_country_code'
  | 'clinic_patient_id'
  | 'physician_name'
  | 'physician_email'
  | 'reference'
  | 'reminder_consent'
  | 'consent_language'
>;

/** 400 on consent_language unless a Language has the code (null: no language). */
async function assertConsentLanguage(db: DbOrTx, code: string | null | undefined): Promise<void> {
  if (code != null && !(await languageCodeExists(db, code))) throw fieldError('consent_language', PATIENT_MESSAGES.consentLanguage);
}

/** Where a device's record came from; the console's create has none. */
export type PatientOrigin = {
  deviceSerialNumber: string;
  localDbId: string | null;
  dateTime: Date | null;
  mostRecentMammogramReport: string[];
};

/**
 * Inserts a patient for `owner` inside the caller's transaction. The reference must be an active reference of the
 * owner's organization (400 'Invalid pk' otherwise).
 */
export async function createPatientRecord(
  tx: Tx,
  owner: PatientOwner,
  record: PatientRecord,
  opts: { at: Date; actorId: number; origin?: PatientOrigin },
): Promise<PatientRow> {
  if (record.reference != null && !(await isActiveReferenceOf(tx, record.reference, owner.organizationId))) {
    throw invalidReference('reference', record.reference);
  }
  await assertConsentLanguage(tx, record.consent_language);
  const { origin } = opts;
  return insertPatient(tx, {
    firstName: record.first_name,
    lastName: record.last_name,
    age: record.age,
    dateOfBirth: record.date_of_birth ?? null,
    email: record.email ?? null,
    gender: record.gender,
    mobile: record.mobile ?? null,
    // The country is always stored with a number (part 2 §5); without a number there is nothing to qualify.
    mobileCountryCode: record.mobile ? record.mobile_country_code : null,
    clinicPatientId: record.clinic_patient_id ?? null,
    physicianName: record.physician_name ?? null,
    physicianEmail: record.physician_email ?? null,
    referenceId: record.reference ?? null,
    reminderConsent: record.reminder_consent ?? false,
    consentLanguage: record.consent_language ?? null,
    organizationId: owner.organizationId,
    technicianId: owner.technicianId,
    dateTime: origin?.dateTime ?? null,
    localDbId: origin?.localDbId ?? null,
    deviceSerialNumber: origin?.deviceSerialNumber ?? null,
    mostRecentMammogramReport: origin?.mostRecentMammogramReport ?? [],
    synced: origin ? opts.at : null,
    created: opts.at,
    modified: opts.at,
    createdBy: opts.actorId,
  });
}

/**
 * `POST patient/` from a device: the patient belongs to the uploader's organization and the uploader is its
 * technician. Idempotent by `key` (runIdempotent); 201 with the patient.
 */
export async function uploadPatient(
  ctx: PatientsContext,
  actor: Actor,
  input: TPatientUpload,
  key: string,
  meta: RequestMeta,
): Promise<IdempotentAnswer> {
  return runIdempotent(ctx, { userId: actor.id, key, endpoint: 'POST patient/', body: input }, async (tx) => {
    const uploader = await resolveUploader(tx, actor, input.device_serial_number);
    await assertOwnFiles(
      tx,
      { userId: actor.id, organizationId: uploader.organizationId },
      input.most_recent_mammogram_report.map((path) => ({
        field: 'most_recent_mammogram_report',
        path,
        folder: SCAN_FILE_FOLDERS.reports,
      })),
    );
    const at = ctx.now();
    const row = await createPatientRecord(
      tx,
      { organizationId: uploader.organizationId, technicianId: actor.id },
      input,
      {
        at,
        actorId: actor.id,
        origin: {
          deviceSerialNumber: uploader.device.serialNumber,
          localDbId: input.local_db_id ?? null,
          dateTime: input.date_time ?? null,
          mostRecentMammogramReport: input.most_recent_mammogram_report,
        },
      },
    );
    await touchLastSync(tx, at, uploader.organizationId, uploader.device.serialNumber);
    await ctx.services.audit.record(
      {
        action: PATIENT_AUDIT_ACTIONS.uploaded,
        ...auditActor(actor, meta),
        targetType: 'patient',
        targetId: row.id,
        organizationId: uploader.organizationId,
        changes: auditChanges(null, patientAuditView(row)),
        details: {
          organization: uploader.organizationId,
          device_serial_number: uploader.device.serialNumber,
          local_db_id: row.localDbId,
          idempotency_key: key,
        },
      },
      tx,
    );
    const presented = await findPatientForPresentation(tx, row.id);
    if (!presented) throw new Error('The stored patient vanished.');
    return { status: 201, body: { ...presentPatient(presented), detail: PATIENT_MESSAGES.created } };
  });
}

// ---- Console use cases (part 2 §2.5, §2.6, §5, §6, §7) -------------------------------------------------------------

export const PATIENT_CONSOLE_AUDIT = {
  created: 'patient.created',
  updated: 'patient.updated',
  deleted: 'patient.deleted',
  transferred: 'patient.transferred',
} as const;

type Meta = Pick<RequestMeta, 'ip' | 'userAgent'>;
type ListRequest = { url: string; timezone: string | string[] | undefined };

function assertCan(actor: Actor, action: TPatientAction): void {
  if (!canPatient(actor.userType, action)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
}

/** The patient in the caller's scope, or 404. */
async function patientInScope(db: DbOrTx, scope: Scope, id: number): Promise<PatientForPresentation> {
  const row = await findPatientInScope(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** GET patient/ */
export async function listPatients(
  ctx: PatientsContext,
  actor: Actor,
  query: TPatientListQuery,
  request: ListRequest,
): Promise<TPaginated<TPatient>> {
  assertCan(actor, 'patient.read');
  const orderBy = parseOrdering(query.ordering, patientOrderingFields, PATIENT_DEFAULT_ORDERING);
  const filters: PatientFilters = {
    organizationId: query.organization_id,
    technicianId: query.technician,
    gender: query.gender,
    assigned: query.is_organization_id,
    search: query.search,
    created: requestPeriod(query, request.timezone, ctx.now()),
  };
  const scope = await resolveScope(ctx.database.db, actor);
  const db = readerFor(ctx.database, query.using_read_db);
  const page = toPageParams(query);
  const { rows, count, capped } = await queryPatients(
    db,
    scope,
    filters,
    { key: query.ordering ?? PATIENT_DEFAULT_ORDERING, orderBy },
    page,
  );
  return paginate(request, page, count, rows.map(presentPatient), capped);
}

/** GET patient/{id}/ */
export async function getPatient(ctx: PatientsContext, actor: Actor, id: number, usingReadDb = false): Promise<TPatient> {
  assertCan(actor, 'patient.read');
  const scope = await resolveScope(ctx.database.db, actor);
  return presentPatient(await patientInScope(readerFor(ctx.database, usingReadDb), scope, id));
}

/**
 * The organization a console create or transfer puts the patient in: an ORG_ADMIN's own (another one named is a
 * 400), else the one sent, which must be in the caller's scope ('Organization is mandatory' when missing).
 */
async function chosenOrganization(
  ctx: PatientsContext,
  actor: Actor,
  scope: Scope,
  sent: number | null | undefined,
  field: string,
): Promise<number> {
  if (hasFixedPatientOrganization(actor.userType)) {
    if (actor.organizationId === null) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
    if (sent != null && sent !== actor.organizationId) throw fieldError(field, PATIENT_MESSAGES.organizationNotYours);
    return actor.organizationId;
  }
  if (sent == null) throw fieldError(field, PATIENT_MESSAGES.organizationRequired);
  if (!(await isInScope(ctx.database.db, scope, sent))) throw fieldError(field, invalidPk(sent));
  return sent;
}

/** `POST patient/` from the console: the chosen organization and technician, then createPatientRecord. */
export async function createConsolePatient(
  ctx: PatientsContext,
  actor: Actor,
  input: TPatientCreate,
  meta: Meta,
): Promise<TPatientSaved> {
  assertCan(actor, 'patient.create');
  const scope = await resolveScope(ctx.database.db, actor);
  const organizationId = await chosenOrganization(ctx, actor, scope, input.organization, 'organization');
  const technicianId = input.technician;
  if (technicianId == null) throw fieldError('technician', PATIENT_MESSAGES.technicianRequired);
  const id = await ctx.database.db.transaction(async (tx) => {
    if (!(await isValidUserOf(tx, technicianId, organizationId, PATIENT_TECHNICIAN_TYPES))) {
      throw fieldError('technician', invalidPk(technicianId));
    }
    const row = await createPatientRecord(tx, { organizationId, technicianId }, input, { at: ctx.now(), actorId: actor.id });
    await ctx.services.audit.record(
      {
        action: PATIENT_CONSOLE_AUDIT.created,
        ...auditActor(actor, meta),
        targetType: 'patient',
        targetId: row.id,
        organizationId,
        changes: auditChanges(null, patientAuditView(row)),
        details: { organization: organizationId, technician: technicianId },
      },
      tx,
    );
    return row.id;
  });
  return { ...(await getPatient(ctx, actor, id)), detail: PATIENT_MESSAGES.created };
}

/**
 * `PATCH patient/{id}/`: the stored record with the patch applied, checked as a whole (the date of birth gives the
 * age; the mobile is read in the resulting country). The technician only for the roles that may change it, and
 * only to a valid TECHNICIAN of the patient's organization.
 */
export async function updateConsolePatient(
  ctx: PatientsContext,
  actor: Actor,
  id: number,
  patch: TPatientPatch,
  meta: Meta,
): Promise<TPatientSaved> {
  assertCan(actor, 'patient.edit');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const current = await patientInScope(db, scope, id);
  const p = current.patient;
  const technicianChanges = patch.technician !== undefined && patch.technician !== p.technicianId;
  if (technicianChanges && !canPatient(actor.userType, 'patient.editTechnician')) {
    throw fieldError('technician', PATIENT_MESSAGES.technicianLocked);
  }
  const has = (k: keyof TPatientPatch) => patch[k] !== undefined;
  const countryCode = patch.mobile_country_code ?? p.mobileCountryCode ?? DEFAULT_COUNTRY_CODE;
  // A stored mobile is '+91-98…'; re-read as national digits only when the patch sends a number.
  const merged = {
    age: has('age') ? patch.age : p.age,
    date_of_birth: has('date_of_birth') ? patch.date_of_birth : p.dateOfBirth,
    mobile: has('mobile') ? patch.mobile : null,
    mobile_country_code: countryCode,
  };
  const checked = checkPatientRecord(merged, todayIso(ctx.now()));
  if (!checked.ok) {
    const fields: Record<string, string[]> = {};
    for (const issue of checked.issues) (fields[issue.path] ??= []).push(issue.message);
    throw badRequest(fields);
  }
  const record = checked.value;
  await db.transaction(async (tx) => {
    if (technicianChanges) {
      if (p.organizationId === null || !(await isValidUserOf(tx, patch.technician!, p.organizationId, PATIENT_TECHNICIAN_TYPES))) {
        throw fieldError('technician', invalidPk(patch.technician!));
      }
    }
    // An unchanged reference stays even if it was deactivated since; a new one must be active and the organization's.
    if (has('reference') && patch.reference != null && patch.reference !== p.referenceId) {
      if (p.organizationId === null || !(await isActiveReferenceOf(tx, patch.reference, p.organizationId))) {
        throw invalidReference('reference', patch.reference);
      }
    }
    if (has('consent_language')) await assertConsentLanguage(tx, patch.consent_language);
    const values: Partial<PatientRow> = { modified: ctx.now(), modifiedBy: actor.id, age: record.age };
    if (has('first_name')) values.firstName = patch.first_name!;
    if (has('last_name')) values.lastName = patch.last_name!;
    if (has('date_of_birth')) values.dateOfBirth = patch.date_of_birth ?? null;
    if (has('email')) values.email = patch.email ?? null;
    if (has('gender')) values.gender = patch.gender!;
    if (has('mobile')) {
      values.mobile = record.mobile;
      values.mobileCountryCode = record.mobile ? countryCode : null;
    } else if (has('mobile_country_code') && p.mobile === null) {
      // Nothing to qualify: the country is stored with a number only.
    }
    if (has('clinic_patient_id')) values.clinicPatientId = patch.clinic_patient_id ?? null;
    if (has('physician_name')) values.physicianName = patch.physician_name ?? null;
    if (has('physician_email')) values.physicianEmail = patch.physician_email ?? null;
    if (has('reference')) values.referenceId = patch.reference ?? null;
    if (has('reminder_consent')) values.reminderConsent = patch.reminder_consent!;
    if (has('consent_language')) values.consentLanguage = patch.consent_language ?? null;
    if (technicianChanges) values.technicianId = patch.technician!;
    await updatePatient(tx, id, values);
    await ctx.services.audit.record(
      {
        action: PATIENT_CONSOLE_AUDIT.updated,
        ...auditActor(actor, meta),
        targetType: 'patient',
        targetId: id,
        organizationId: p.organizationId,
        // Before and after values (issue 27): the audit trail is read by AUDIT_ROLES only, within their scope.
        changes: auditChanges(patientAuditView(p), patientAuditView({ ...p, ...values })),
        details: {
          fields: Object.keys(patch).filter((k) => has(k as keyof TPatientPatch)),
          ...(technicianChanges ? { technician: patch.technician, previous_technician: p.technicianId } : {}),
        },
      },
      tx,
    );
  });
  return { ...(await getPatient(ctx, actor, id)), detail: PATIENT_MESSAGES.updated };
}

/** `DELETE patient/{id}/` (ADMIN): the patient and its scans, cervical and ORCA exams. */
export async function deleteConsolePatient(
  ctx: PatientsContext,
  actor: Actor,
  id: number,
  meta: Meta,
): Promise<{ detail: string }> {
  assertCan(actor, 'patient.delete');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const current = await patientInScope(db, scope, id);
  await db.transaction(async (tx) => {
    // To the trash (issue 27) with its scans, exams and follow-up cases: gone everywhere, restorable for
    // TRASH_RETENTION_DAYS.
    const { record, counts } = await moveToTrash(tx, {
      area: 'patients',
      targetType: 'patient',
      targetId: id,
      label: `${current.patient.firstName} ${current.patient.lastName}`.trim(),
      organizationId: current.patient.organizationId,
      deletedBy: actor.id,
      at: ctx.now(),
    });
    await ctx.services.audit.record(
      {
        action: PATIENT_CONSOLE_AUDIT.deleted,
        actorId: actor.id,
        targetType: 'patient',
        targetId: id,
        organizationId: current.patient.organizationId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: {
          organization: current.patient.organizationId,
          technician: current.patient.technicianId,
          deleted_scans: counts.scans ?? 0,
          deleted_cervical_exams: counts.cervical_exams ?? 0,
          deleted_orca_exams: counts.orca_exams ?? 0,
        },
        changes: auditChanges(record, null),
      },
      tx,
    );
  });
  return { detail: PATIENT_MESSAGES.deleted };
}

/**
 * `POST patient/transfer/{id}/`: organization then technician (admin-type roles), or a technician of its own
 * organization (ORG_ADMIN). The patient's scans, cervical and ORCA exams move with it.
 */
export async function transferConsolePatient(
  ctx: PatientsContext,
  actor: Actor,
  id: number,
  input: TPatientTransfer,
  meta: Meta,
): Promise<TPatientSaved> {
  assertCan(actor, 'patient.transfer');
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const current = await patientInScope(db, scope, id);
  const organizationId = await chosenOrganization(ctx, actor, scope, input.organization_id, 'organization_id');
  const technicianId = input.technician_id;
  if (technicianId == null) throw fieldError('technician_id', PATIENT_MESSAGES.technicianRequired);
  await db.transaction(async (tx) => {
    if (!(await isValidUserOf(tx, technicianId, organizationId, TRANSFER_TECHNICIAN_TYPES))) {
      throw fieldError('technician_id', invalidPk(technicianId));
    }
    const at = ctx.now();
    const { filePaths, ...moved } = await movePatient(tx, id, { organizationId, technicianId, by: actor.id, at });
    // The patient's follow-up cases move with them (issue 26), their due dates in the new organization's zone.
    const movedCases =
      current.patient.organizationId === organizationId
        ? 0
        : await moveCasesWithPatient(tx, id, organizationId, { now: at, actorId: actor.id });
    // The patient's files follow it: the new organization reads them, the old one no longer does.
    await moveFiles(tx, filePaths, organizationId);
    await ctx.services.audit.record(
      {
        action: PATIENT_CONSOLE_AUDIT.transferred,
        ...auditActor(actor, meta),
        targetType: 'patient',
        targetId: id,
        // The new organization reads the row; the old one is in the changes.
        organizationId,
        changes: auditChanges(
          { organization: current.patient.organizationId, technician: current.patient.technicianId },
          { organization: organizationId, technician: technicianId },
        ),
        details: {
          organization: organizationId,
          technician: technicianId,
          previous_organization: current.patient.organizationId,
          previous_technician: current.patient.technicianId,
          moved_scans: moved.scans,
          moved_cervical_exams: moved.cervical,
          moved_orca_exams: moved.orca,
          moved_follow_up_cases: movedCases,
        },
      },
      tx,
    );
  });
  return { ...(await getPatient(ctx, actor, id)), detail: PATIENT_MESSAGES.transferred };
}

/**
 * `GET patient/{id}/reports/`: the transfer dialog's tables (up to PATIENT_REPORTS_LIMIT of each kind), with the
 * patient's organization (the read's audit row).
 */
export async function getPatientReports(
  ctx: PatientsContext,
  actor: Actor,
  id: number,
  usingReadDb = false,
): Promise<{ reports: TPatientReports; organizationId: number | null }> {
  assertCan(actor, 'patient.read');
  const db = readerFor(ctx.database, usingReadDb);
  const scope = await resolveScope(ctx.database.db, actor);
  const { patient } = await patientInScope(db, scope, id);
  const [scanRows, cervicalRows, orcaRows] = await Promise.all([
    listPatientExams(db, scans, id, PATIENT_REPORTS_LIMIT),
    listPatientExams(db, cervicalExams, id, PATIENT_REPORTS_LIMIT),
    listPatientExams(db, orcaExams, id, PATIENT_REPORTS_LIMIT),
  ]);
  return {
    reports: { scans: scanRows.map(presentPatientReport), cervical: cervicalRows.map(presentPatientReport), orca: orcaRows.map(presentPatientReport) },
    organizationId: patient.organizationId,
  };
}

/** A patient's fields as the API names them, for an audit row's before/after (stamps left out). */
function patientAuditView(row: PatientRow): Record<string, unknown> {
  return {
    first_name: row.firstName,
    last_name: row.lastName,
    date_of_birth: row.dateOfBirth,
    age: row.age,
    gender: row.gender,
    email: row.email,
    mobile: row.mobile,
    mobile_country_code: row.mobileCountryCode,
    clinic_patient_id: row.clinicPatientId,
    physician_name: row.physicianName,
    physician_email: row.physicianEmail,
    reference: row.referenceId,
    reminder_consent: row.reminderConsent,
    consent_language: row.consentLanguage,
    organization: row.organizationId,
    technician: row.technicianId,
  };
}
