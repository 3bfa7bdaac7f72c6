// Patients (part 2 §3 Patient, §5 "Patient form", §8): the fields, their rules and messages, for the device upload
// (`POST patient/` from a device) and the console's patient dialog, which validate with the same field rules.
// Age: 12–120, or computed from the date of birth (1900-01-01 .. today − 12 years), which then wins.
import { z } from 'zod';
import { DEFAULT_COUNTRY_CODE, GENDERS, PATIENT_MAX_AGE, PATIENT_MIN_AGE } from './constants.ts';
import { ZSerialNumber } from './devices.ts';
import { FILE_PATH_MAX } from './files.ts';
import { ZBoolParam, ZListQuery, ZPeriodQuery, idField, idParam, isIsoDate } from './list.ts';
import { USER_TYPES, type TUserType } from './roles.ts';
import { EMAIL_PATTERN, MESSAGES, mobileTextField, parseMobile, textField } from './validation.ts';
import { mobileProblem } from './phone.ts';

export const PATIENT_NAME_MAX = 100;
export const PATIENT_TEXT_MAX = 100;
export const PATIENT_BIRTH_DATE_MIN = '1900-01-01';
export const LOCAL_DB_ID_MAX = 100;
export const MAMMOGRAM_REPORTS_MAX = 10;

/** Part 2 §8 texts verbatim ('… Successfully', 'Technician is mandatory'); the rest are ours (the spec shows none). */
export const PATIENT_MESSAGES = {
  created: 'Patient created Successfully',
  updated: 'Patient updated Successfully',
  technicianRequired: 'Technician is mandatory',
  organizationRequired: 'Organization is mandatory',
  age: `Age must be between ${PATIENT_MIN_AGE} and ${PATIENT_MAX_AGE}.`,
  ageRequired: 'Enter the age or the date of birth.',
  birthDate: (min: string, max: string) => `Enter a date of birth between ${min} and ${max}.`,
  invalidDate: 'Enter a valid date in YYYY-MM-DD format.',
  invalidDateTime: 'Enter a valid date and time in ISO 8601 format (e.g. 2026-03-01T10:00:00Z).',
  gender: `Select a valid choice: ${GENDERS.join(', ')}.`,
  nameTooLong: `Ensure this field has no more than ${PATIENT_NAME_MAX} characters.`,
  textTooLong: `Ensure this field has no more than ${PATIENT_TEXT_MAX} characters.`,
  transferred: 'Patient Transferred Successfully',
  deleted: 'Patient Deleted Successfully',
  /** Part 2 §8 confirm prompt, verbatim. */
  deleteConfirm: (name: string) =>
    `Are you sure you want to delete ${name}? Any pending report(s) in the app won't be uploaded after deletion.`,
  technicianLocked: 'You may not change the technician of this patient.',
  organizationNotYours: 'You may only choose a technician of your own organization.',
  noReports: 'No reports are available.',
  /** The same text as the follow-up settings' reminder languages (FOLLOW_UP_MESSAGES.smsLanguageUnknown). */
  consentLanguage: 'Unknown language.',
  consentBoolean: 'Must be a valid boolean.',
} as const;

const maxChars = (n: number) => `Ensure this field has no more than ${n} characters.`;

// ---- Age and date of birth --------------------------------------------------------------------------------------

/** `today` (YYYY-MM-DD) minus `years` years; 29 February becomes 28 February in a year without it. */
export function minusYears(today: string, years: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const year = y - years;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** The latest date of birth accepted on `today`: a patient is at least PATIENT_MIN_AGE years old. */
export const latestBirthDate = (today: string): string => minusYears(today, PATIENT_MIN_AGE);

/**
 * The earliest date of birth accepted on `today`: 1900-01-01 (part 2 §5), or later when that would make the patient
 * older than PATIENT_MAX_AGE (the age rule holds for a computed age too).
 */
export function earliestBirthDate(today: string): string {
  const oldest = new Date(`${minusYears(today, PATIENT_MAX_AGE + 1)}T00:00:00Z`);
  oldest.setUTCDate(oldest.getUTCDate() + 1);
  const fromAge = oldest.toISOString().slice(0, 10);
  return fromAge > PATIENT_BIRTH_DATE_MIN ? fromAge : PATIENT_BIRTH_DATE_MIN;
}

/** Whole years between a date of birth and `today` (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** The message for a date of birth outside earliestBirthDate .. today − 12 years, else null. */
export function birthDateProblem(dateOfBirth: string, today: string): string | null {
  const min = earliestBirthDate(today);
  const max = latestBirthDate(today);
  return dateOfBirth < min || dateOfBirth > max ? PATIENT_MESSAGES.birthDate(min, max) : null;
}

/** Today as YYYY-MM-DD (UTC), for the rules above. */
export const todayIso = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

// ---- Field builders -----------------------------------------------------------------------------------------------

const requiredName = () =>
  textField({ error: (issue) => (issue.input == null ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(PATIENT_NAME_MAX, PATIENT_MESSAGES.nameTooLong);

/** Optional one-line text: '' becomes null. */
const optionalText = (max = PATIENT_TEXT_MAX) =>
  textField()
    .trim()
    .max(max, maxChars(max))
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

const optionalEmail = () =>
  textField()
    .trim()
    .max(254, MESSAGES.invalidEmail)
    .refine((v) => v === '' || EMAIL_PATTERN.test(v), MESSAGES.invalidEmail)
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === undefined || v === null ? null : v.toLowerCase()));

const optionalDate = () =>
  z
    .string({ error: PATIENT_MESSAGES.invalidDate })
    .refine(isIsoDate, PATIENT_MESSAGES.invalidDate)
    .nullable()
    .optional()
    .transform((v) => v ?? null);

const INTEGER_MESSAGE = 'A valid integer is required.';
export const pk = () => idField(INTEGER_MESSAGE);

/** An ISO 8601 date-time with an offset or Z ('2026-03-01T10:00:00Z'), read as a Date. */
export const isoDateTime = () =>
  z
    .string({ error: PATIENT_MESSAGES.invalidDateTime })
    .max(40, PATIENT_MESSAGES.invalidDateTime)
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) &&
        !Number.isNaN(Date.parse(v)),
      PATIENT_MESSAGES.invalidDateTime,
    )
    .transform((v) => new Date(v));

/** A stored upload path (`reports/…`): kept byte for byte; the API checks it names a file of the caller's. */
export const uploadedPath = () =>
  textField({ normalize: false })
    .trim()
    .min(1, MESSAGES.required)
    .max(FILE_PATH_MAX, maxChars(FILE_PATH_MAX));

/**
 * The language the patient gave their reminder consent in: a Language iso code ('en', 'hi', 'fil'), read lower
 * case; '' and null clear it. The API checks a row of `languages` has it ('Unknown language.' otherwise).
 */
const consentLanguageField = () =>
  textField({ error: PATIENT_MESSAGES.consentLanguage })
    .trim()
    .toLowerCase()
    .refine((v) => v === '' || /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(v), PATIENT_MESSAGES.consentLanguage)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

const countryCodeField = () =>
  textField({ error: MESSAGES.selectCountryCode })
    .trim()
    .regex(/^[A-Za-z]{2}$/, MESSAGES.selectCountryCode)
    .transform((c) => c.toUpperCase());

/** The fields of a patient record both the device upload and the console dialog send (part 2 §7 Patients POST). */
export const patientFields = {
  first_name: requiredName(),
  last_name: requiredName(),
  age: z
    .number({ error: INTEGER_MESSAGE })
    .int(INTEGER_MESSAGE)
    .min(PATIENT_MIN_AGE, PATIENT_MESSAGES.age)
    .max(PATIENT_MAX_AGE, PATIENT_MESSAGES.age)
    .nullable()
    .optional(),
  date_of_birth: optionalDate(),
  email: optionalEmail(),
  gender: z.enum(GENDERS, { error: PATIENT_MESSAGES.gender }).default('FEMALE'),
  /** Optional; read in `mobile_country_code` (default IN, always stored with the number). */
  mobile: mobileTextField()
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  mobile_country_code: countryCodeField().default(DEFAULT_COUNTRY_CODE),
  clinic_patient_id: optionalText(),
  physician_name: optionalText(),
  physician_email: optionalEmail(),
  /** An active reference of the patient's organization. */
  reference: pk().nullable().optional(),
  /** The patient agreed to follow-up reminders by SMS (issue 26); absent on a create is false. */
  reminder_consent: z.boolean({ error: PATIENT_MESSAGES.consentBoolean }).optional(),
  consent_language: consentLanguageField(),
};

type PatientCross = {
  age?: number | null;
  date_of_birth?: string | null;
  mobile?: string | null;
  mobile_country_code: string;
};

/**
 * Cross-field rules on `today`: age or date of birth required, the date of birth in range, the mobile valid for the
 * country. Then the stored forms: the age computed from the date of birth, the mobile as '+91-9876543210'.
 */
export function refinePatient(p: PatientCross, ctx: z.RefinementCtx, today: string = todayIso()): void {
  if (p.date_of_birth) {
    const problem = birthDateProblem(p.date_of_birth, today);
    if (problem) ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: problem });
  } else if (p.age === undefined || p.age === null) {
    ctx.addIssue({ code: 'custom', path: ['age'], message: PATIENT_MESSAGES.ageRequired });
  }
  const mobile = p.mobile ? mobileProblem(p.mobile, p.mobile_country_code) : null;
  if (mobile) ctx.addIssue({ code: 'custom', path: ['mobile'], message: mobile });
}

export function normalizePatient<T extends PatientCross>(
  p: T,
  today: string = todayIso(),
): T & { age: number } {
  const mobile = p.mobile ? (parseMobile(p.mobile, p.mobile_country_code)?.stored ?? p.mobile) : null;
  const age = p.date_of_birth ? ageOn(p.date_of_birth, today) : (p.age ?? 0);
  return { ...p, mobile, age };
}

/** The OpenAPI page's example of `POST patient/`. */
export const PATIENT_UPLOAD_EXAMPLE = {
  first_name: 'Asha',
  last_name: 'Rao',
  date_of_birth: '1980-04-12',
  gender: 'FEMALE',
  mobile: '9876543210',
  mobile_country_code: 'IN',
  email: 'asha@example.com',
  clinic_patient_id: 'SWC-1042',
  device_serial_number: 'IBE241071',
  local_db_id: 'p-17',
  date_time: '2026-03-01T09:55:00Z',
} as const;

/**
 * `POST patient/` from a device: the record, the device it comes from and its id in the device's database. The
 * organization and the technician are the caller's (a device uploads its technician's own work).
 */
export const ZPatientUpload = z
  .object(
    {
      ...patientFields,
      device_serial_number: ZSerialNumber,
      local_db_id: optionalText(LOCAL_DB_ID_MAX),
      /** When the record was made on the device. */
      date_time: isoDateTime().nullable().optional(),
      /** Earlier mammogram reports: paths of PDFs the caller uploaded to `reports/`. */
      most_recent_mammogram_report: z
        .array(uploadedPath(), { error: 'Expected a list of items.' })
        .max(MAMMOGRAM_REPORTS_MAX, `Ensure this field has no more than ${MAMMOGRAM_REPORTS_MAX} elements.`)
        .default([]),
    },
    { error: 'Expected an object.' },
  )
  .superRefine((p, ctx) => refinePatient(p, ctx))
  .transform((p) => normalizePatient(p));
export type TPatientUpload = z.output<typeof ZPatientUpload>;
export type TPatientUploadInput = z.input<typeof ZPatientUpload>;

// ---- Responses ------------------------------------------------------------------------------------------------------

/** Part 2 §3 Patient, plus where an uploaded record came from. */
export const ZPatient = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  mobile: z.string().nullable(),
  mobile_country_code: z.string().nullable(),
  age: z.number().nullable(),
  date_of_birth: z.string().nullable().describe('YYYY-MM-DD'),
  email: z.string().nullable(),
  gender: z.enum(GENDERS),
  clinic_patient_id: z.string().nullable(),
  physician_name: z.string().nullable(),
  physician_email: z.string().nullable(),
  reference: z.number().nullable(),
  reference_name: z.string().nullable(),
  organization: z.number().nullable(),
  organization_data: z.object({ id: z.number(), name: z.string() }).nullable(),
  technician: z.number().nullable(),
  technician_data: z
    .object({
      id: z.number(),
      first_name: z.string(),
      last_name: z.string(),
      username: z.string(),
      user_type: z.enum(USER_TYPES),
    })
    .nullable(),
  created: z.string(),
  date_time: z.string().nullable(),
  synced: z.string().nullable(),
  device_serial_number: z.string().nullable(),
  local_db_id: z.string().nullable(),
  most_recent_mammogram_report: z.array(z.string()),
  /** Follow-up reminders by SMS (issue 26): the patient's consent and the language it was given in (iso code). */
  reminder_consent: z.boolean(),
  consent_language: z.string().nullable(),
});
export type TPatient = z.infer<typeof ZPatient>;

export const ZPatientSaved = ZPatient.extend({ detail: z.string() });
export type TPatientSaved = z.infer<typeof ZPatientSaved>;


// ---- Console: create, edit, transfer, list (part 2 §2.5, §2.6, §5, §6, §7) ---------------------------------------

/**
 * Who may do what with patients (part 2 §6 "Patients", "Patient transfer"; docs/decisions.md "Patients: roles and
 * transfer").
 */
export const PATIENT_ACTIONS = {
  /** The list, a patient, create and edit: the console roles that hold organizations. */
  'patient.read': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  'patient.create': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  'patient.edit': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  /** "ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN and MANAGER may edit the technician of an existing patient." */
  'patient.editTechnician': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER'],
  /** "Only ADMIN sees Delete." */
  'patient.delete': ['ADMIN'],
  /** The assigned/unassigned filter panel: "ADMIN and SUB_ADMIN are treated as admins". */
  'patient.adminFilters': ['ADMIN', 'SUB_ADMIN'],
  /** Organization then technician. */
  'patient.transferOrganization': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER'],
  /** A technician within its own organization only. */
  'patient.transfer': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
} as const satisfies Record<string, readonly TUserType[]>;
export type TPatientAction = keyof typeof PATIENT_ACTIONS;

export const canPatient = (role: TUserType | null | undefined, action: TPatientAction): boolean =>
  role != null && (PATIENT_ACTIONS[action] as readonly TUserType[]).includes(role);

/** Technician candidates of a new or edited patient (part 2 §5). */
export const PATIENT_TECHNICIAN_TYPES = ['TECHNICIAN'] as const satisfies readonly TUserType[];
/** Technician candidates of a transfer (part 2 §6). */
export const TRANSFER_TECHNICIAN_TYPES = [
  'TECHNICIAN',
  'ORG_ADMIN',
  'DISTRIBUTOR_ADMIN',
] as const satisfies readonly TUserType[];

/** Whether an actor of this type has one organization fixed for it (its own) when creating or transferring. */
export const hasFixedPatientOrganization = (role: TUserType): boolean => role === 'ORG_ADMIN';

type ConsoleCross = PatientCross & { technician?: number | null };

/**
 * `POST patient/` from the console (no device_serial_number): the record, its organization (mandatory unless the
 * caller is an ORG_ADMIN, whose organization it is) and its technician (mandatory: a valid TECHNICIAN of that
 * organization, checked by the API).
 */
export const ZPatientCreate = z
  .object(
    {
      ...patientFields,
      organization: pk().nullable().optional(),
      technician: pk().nullable().optional(),
    },
    { error: 'Expected an object.' },
  )
  .superRefine((p, ctx) => {
    refinePatient(p, ctx);
    if (p.technician == null) {
      ctx.addIssue({ code: 'custom', path: ['technician'], message: PATIENT_MESSAGES.technicianRequired });
    }
  })
  .transform((p) => normalizePatient(p));
export type TPatientCreate = z.output<typeof ZPatientCreate>;
export type TPatientCreateInput = z.input<typeof ZPatientCreate>;

/**
 * `PATCH patient/{id}/`: any of the record's fields, and the technician for the roles that may change it. The
 * organization moves only by a transfer. The API merges the patch with the stored record and applies the
 * cross-field rules to the result (the date of birth, when there is one, gives the age).
 */
// An edit's optional fields: absent stays undefined (unchanged); '' and null clear the value.
const patchText = (max = PATIENT_TEXT_MAX) =>
  textField()
    .trim()
    .max(max, maxChars(max))
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
const patchEmail = () =>
  textField()
    .trim()
    .max(254, MESSAGES.invalidEmail)
    .refine((v) => v === '' || EMAIL_PATTERN.test(v), MESSAGES.invalidEmail)
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === null ? null : v?.toLowerCase()));

export const ZPatientPatch = z.object(
  {
    first_name: patientFields.first_name.optional(),
    last_name: patientFields.last_name.optional(),
    age: patientFields.age,
    date_of_birth: z
      .string({ error: PATIENT_MESSAGES.invalidDate })
      .refine(isIsoDate, PATIENT_MESSAGES.invalidDate)
      .nullable()
      .optional(),
    email: patchEmail(),
    gender: z.enum(GENDERS, { error: PATIENT_MESSAGES.gender }).optional(),
    mobile: mobileTextField()
      .nullable()
      .optional()
      .transform((v) => (v === '' ? null : v)),
    mobile_country_code: countryCodeField().optional(),
    clinic_patient_id: patchText(),
    physician_name: patchText(),
    physician_email: patchEmail(),
    reference: pk().nullable().optional(),
    technician: pk().optional(),
    reminder_consent: patientFields.reminder_consent,
    consent_language: consentLanguageField(),
  },
  { error: 'Expected an object.' },
);
export type TPatientPatch = z.output<typeof ZPatientPatch>;
export type TPatientPatchInput = z.input<typeof ZPatientPatch>;

/**
 * The merged record of an edit checked and normalised like a create (`today` for the age rules). Returns the issues
 * (path, message) or the normalised record.
 */
export function checkPatientRecord<T extends ConsoleCross>(
  record: T,
  today: string = todayIso(),
): { ok: true; value: T & { age: number } } | { ok: false; issues: { path: string; message: string }[] } {
  const issues: { path: string; message: string }[] = [];
  const ctx = {
    addIssue: (i: { path?: (string | number)[]; message?: string }) =>
      issues.push({ path: String(i.path?.[0] ?? 'non_field_errors'), message: i.message ?? 'Invalid value.' }),
  } as unknown as z.RefinementCtx;
  refinePatient(record, ctx, today);
  return issues.length ? { ok: false, issues } : { ok: true, value: normalizePatient(record, today) };
}

/** `POST patient/transfer/{id}/`: admin-type roles send both; an ORG_ADMIN only the technician. */
export const ZPatientTransfer = z.object(
  {
    organization_id: pk().nullable().optional(),
    technician_id: pk().nullable().optional(),
  },
  { error: 'Expected an object.' },
);
export type TPatientTransfer = z.output<typeof ZPatientTransfer>;

export const PATIENT_ORDERING_FIELDS = ['id', 'first_name', 'last_name', 'age', 'created', 'synced', 'date_time'] as const;
export const PATIENT_DEFAULT_ORDERING = '-created';

/** `GET patient/` (part 2 §2.5, §7). Period filters read `created`. */
export const ZPatientListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  organization_id: idParam('organization_id').optional(),
  technician: idParam('technician').optional(),
  gender: z.enum(GENDERS, { error: PATIENT_MESSAGES.gender }).optional(),
  /** The admins' panel: true = assigned to an organization, false = unassigned. */
  is_organization_id: ZBoolParam.optional(),
});
export type TPatientListQuery = z.infer<typeof ZPatientListQuery>;
export type TPatientListQueryInput = z.input<typeof ZPatientListQuery>;

/** One row of the transfer dialog's report tables (part 2 §2.6). */
export const ZPatientReport = z.object({
  id: z.number(),
  patient_name: z.string(),
  mobile: z.string().nullable(),
  device_serial_number: z.string().nullable(),
  organization: z.number().nullable(),
  organization_name: z.string().nullable(),
  technician: z.number().nullable(),
  technician_name: z.string().nullable(),
  date_time: z.string(),
  created: z.string(),
});
export type TPatientReport = z.infer<typeof ZPatientReport>;

/** The most reports of each kind the transfer dialog lists (part 2 §9). */
export const PATIENT_REPORTS_LIMIT = 1000;

/** `GET patient/{id}/reports/`: the patient's scans, cervical exams and ORCA exams, newest first. */
export const ZPatientReports = z.object({
  scans: z.array(ZPatientReport),
  cervical: z.array(ZPatientReport),
  orca: z.array(ZPatientReport),
});
export type TPatientReports = z.infer<typeof ZPatientReports>;

export const ZPatientDetail = z.object({ detail: z.string() });

/** '{first} {last}' as the lists and prompts show it. */
export const patientName = (p: { first_name: string; last_name: string }): string =>
  `${p.first_name} ${p.last_name}`.trim();
