// Device uploads of cervical (`POST cervaical/`) and ORCA (`POST orca/`) exams (issue 10; part 3 §3; architecture §7).
// The spec lists `cervaical` and `orca` among the endpoints but shows no device call: these follow `POST scan/`
// (docs/decisions.md "Exam uploads"). The fields an exam shares with a breast scan are the scan upload's own
// validators (ZScanUpload's shape), so a serial, a date or a note is checked the same way everywhere. Each stored
// exam takes one licence of its application from the organization.
import { z } from 'zod';
import { DOCUMENT_TYPES, ORCA_EXAMS, TOBACCO_FREQUENCIES } from './constants.ts';
import type { TUploadFolder } from './files.ts';
import { uploadedPath } from './patients.ts';
import { SCAN_MESSAGES, ZScanUpload } from './scans.ts';
import { textField } from './validation.ts';

export type TExamApplication = 'CERVAICAL' | 'ORCA';

export const EXAM_DOCUMENTS_MAX = 20;
export const ORCA_FINDINGS_MAX = 100;
export const EXAM_TEXT_MAX = 100;
export const EXAM_LIST_MAX = 20;

/** Where each kind of file must have been uploaded (`POST file/upload/` with this folder). */
export const EXAM_FILE_FOLDERS = {
  reports: 'reports',
  consent_form: 'consent_forms',
  documents: 'documents',
  findings: 'documents',
} as const satisfies Record<string, TUploadFolder>;

export const EXAM_UPLOAD_MESSAGES = {
  cervicalCreated: 'Cervaical exam uploaded successfully.',
  orcaCreated: 'ORCA exam uploaded successfully.',
  alreadyStored: 'This exam was already uploaded with the same content: the stored exam is returned.',
  storedDifferently:
    'An exam with this local_db_id was already uploaded from this device with different content: send a new local_db_id for a new exam.',
  documentsRequired: 'Send at least one photo or video.',
  documentType: `Select a valid choice: ${DOCUMENT_TYPES.join(', ')}.`,
  orcaExam: `Select a valid choice: ${ORCA_EXAMS.join(', ')}.`,
  frequency: `Select a valid choice: ${TOBACCO_FREQUENCIES.join(', ')}.`,
} as const;

const maxChars = (n: number) => `Ensure this field has no more than ${n} characters.`;
const maxItems = (n: number) => `Ensure this field has no more than ${n} elements.`;
const LIST_MESSAGE = 'Expected a list of items.';
const OBJECT_MESSAGE = 'Expected an object.';
const BOOL_MESSAGE = 'Must be a valid boolean.';

const s = ZScanUpload.shape;
const storedFiles = s.scan_files_path.unwrap().shape.reports;

/** What every exam upload shares with `POST scan/`. */
const examFields = {
  patient: s.patient,
  device_serial_number: s.device_serial_number,
  local_db_id: s.local_db_id,
  sensor_serial_number: s.sensor_serial_number,
  tablet_serial_number: s.tablet_serial_number,
  hardware_version: s.hardware_version,
  software_version: s.software_version,
  date_time: s.date_time,
  is_survivor: s.is_survivor,
  has_family_history: s.has_family_history,
  has_symptoms: s.has_symptoms,
  under_bust: s.under_bust,
  over_bust: s.over_bust,
  latitude: s.latitude,
  longitude: s.longitude,
  metadata: s.metadata,
  file_path: z
    .object({ reports: storedFiles, consent_form: storedFiles }, { error: OBJECT_MESSAGE })
    .default({ reports: [], consent_form: [] }),
};

const optionalText = (max = EXAM_TEXT_MAX) =>
  textField()
    .trim()
    .max(max, maxChars(max))
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

const textList = () =>
  z
    .array(
      textField().trim().min(1, 'This field may not be blank.').max(EXAM_TEXT_MAX, maxChars(EXAM_TEXT_MAX)),
      {
        error: LIST_MESSAGE,
      },
    )
    .max(EXAM_LIST_MAX, maxItems(EXAM_LIST_MAX))
    .default([]);

const flag = () => z.boolean({ error: BOOL_MESSAGE }).default(false);

/** Months (or a quantity): a whole, non-negative number, or nothing. */
const months = () =>
  z
    .number({ error: 'A valid integer is required.' })
    .int('A valid integer is required.')
    .min(0, 'Ensure this value is greater than or equal to 0.')
    .max(1200, 'Ensure this value is less than or equal to 1200.')
    .nullable()
    .optional()
    .transform((v) => v ?? null);

const quantity = () =>
  z
    .number({ error: 'A valid number is required.' })
    .min(0, 'Ensure this value is greater than or equal to 0.')
    .max(10_000, 'Ensure this value is less than or equal to 10000.')
    .nullable()
    .optional()
    .transform((v) => v ?? null);

const frequency = () =>
  z
    .enum(TOBACCO_FREQUENCIES, { error: EXAM_UPLOAD_MESSAGES.frequency })
    .nullable()
    .optional()
    .transform((v) => v ?? null);

/** Latitude and longitude come together, as for a scan. */
function coordinatesTogether(
  v: { latitude: number | null; longitude: number | null },
  ctx: z.RefinementCtx,
): void {
  if ((v.latitude === null) !== (v.longitude === null)) {
    ctx.addIssue({
      code: 'custom',
      path: [v.latitude === null ? 'latitude' : 'longitude'],
      message: SCAN_MESSAGES.coordinatesTogether,
    });
  }
}

// ---- POST cervaical/ ---------------------------------------------------------------------------------------------

export const ZCervicalDocumentUpload = z.object(
  {
    path: uploadedPath(),
    document_type: z.enum(DOCUMENT_TYPES, { error: EXAM_UPLOAD_MESSAGES.documentType }),
    symptom_tag: optionalText(),
  },
  { error: OBJECT_MESSAGE },
);

export const ZCervicalUpload = z
  .object(
    {
      ...examFields,
      breast_type: s.breast_type,
      left_breast_finding: s.left_breast_finding,
      right_breast_finding: s.right_breast_finding,
      notes: s.notes,
      /** The exam's photos and videos, each a file uploaded into documents/ first; reviewers review each. */
      documents: z
        .array(ZCervicalDocumentUpload, { error: LIST_MESSAGE })
        .min(1, EXAM_UPLOAD_MESSAGES.documentsRequired)
        .max(EXAM_DOCUMENTS_MAX, maxItems(EXAM_DOCUMENTS_MAX)),
    },
    { error: OBJECT_MESSAGE },
  )
  .superRefine(coordinatesTogether);
export type TCervicalUpload = z.output<typeof ZCervicalUpload>;
export type TCervicalUploadInput = z.input<typeof ZCervicalUpload>;

// ---- POST orca/ --------------------------------------------------------------------------------------------------

/** Part 3 §3 ORCA case-history fields as a device sends them; durations in months. */
export const ZOrcaCaseHistoryUpload = z.object(
  {
    consumes_alcohol: flag(),
    alcohol_usage_last_year: optionalText(),
    consumes_other_substance: flag(),
    other_substance_consumed: textList(),
    has_hypertension: flag(),
    had_heart_attack: flag(),
    has_asthma_bronchitis: flag(),
    has_diabetes: flag(),
    has_stroke: flag(),
    uses_tobacco: flag(),
    consumes_smoking_tobacco: flag(),
    smoking_tobacco_type: textList(),
    smoking_tobacco_usage_frequency: frequency(),
    smoking_history_time_months: months(),
    smokes_per_unit: quantity(),
    smoke_count_unit: optionalText(),
    smoking_quit_months_ago: months(),
    consumes_smokeless_tobacco: flag(),
    smokeless_tobacco_type: textList(),
    smokeless_tobacco_usage_frequency: frequency(),
    smokeless_history_time_months: months(),
    smokeless_packets_count_unit: quantity(),
    smokeless_packets_duration_unit: optionalText(),
    smokeless_quit_months_ago: months(),
  },
  { error: OBJECT_MESSAGE },
);

export const ZOrcaFindingUpload = z.object(
  {
    exam: z.enum(ORCA_EXAMS, { error: EXAM_UPLOAD_MESSAGES.orcaExam }),
    part: textField({ error: 'This field is required.' })
      .trim()
      .min(1, 'This field may not be blank.')
      .max(EXAM_TEXT_MAX, maxChars(EXAM_TEXT_MAX)),
    sub_part: optionalText(),
    index: z
      .number({ error: 'A valid integer is required.' })
      .int('A valid integer is required.')
      .min(0, 'Ensure this value is greater than or equal to 0.')
      .max(1000, 'Ensure this value is less than or equal to 1000.')
      .default(0),
    symptoms: textList(),
    /** The finding's photo, uploaded into documents/ first. */
    path: uploadedPath()
      .nullable()
      .optional()
      .transform((v) => v ?? null),
  },
  { error: OBJECT_MESSAGE },
);

export const ZOrcaUpload = z
  .object(
    {
      ...examFields,
      /** The licence key the app was activated with: the licence taken is then that one (optional). */
      license_code: optionalText(),
      cancer_history: flag(),
      case_history: ZOrcaCaseHistoryUpload.nullable()
        .optional()
        .transform((v) => v ?? null),
      findings: z
        .array(ZOrcaFindingUpload, { error: LIST_MESSAGE })
        .max(ORCA_FINDINGS_MAX, maxItems(ORCA_FINDINGS_MAX))
        .default([]),
    },
    { error: OBJECT_MESSAGE },
  )
  .superRefine(coordinatesTogether);
export type TOrcaUpload = z.output<typeof ZOrcaUpload>;
export type TOrcaUploadInput = z.input<typeof ZOrcaUpload>;

// ---- Answer ------------------------------------------------------------------------------------------------------

/** What an exam upload answers (201 stored, 200 the same upload again). */
export const ZExamUploadSaved = z.object({
  id: z.number(),
  application: z.enum(['CERVAICAL', 'ORCA']),
  patient: z.number().nullable(),
  organization: z.number().nullable(),
  technician: z.number().nullable(),
  device_serial_number: z.string().nullable(),
  local_db_id: z.string().nullable(),
  date_time: z.string(),
  created: z.string(),
  /** The licence the exam took (its key, and how many of its licences are used with this one). */
  license_id: z.number().nullable(),
  licence_code: z.string().nullable(),
  current_report_count: z.number().nullable(),
  /** Licences of this application the organization has left after this exam. */
  licenses_left: z.number().nullable(),
  detail: z.string(),
});
export type TExamUploadSaved = z.infer<typeof ZExamUploadSaved>;

/** OpenAPI examples (paths as `POST file/upload/` answered them). */
export const CERVICAL_UPLOAD_EXAMPLE = {
  patient: 42,
  device_serial_number: 'IBE241071',
  local_db_id: 'c-17',
  date_time: '2026-03-01T10:00:00Z',
  has_symptoms: true,
  notes: { message: 'Post-coital bleeding.' },
  file_path: { reports: [{ path: 'reports/55df5702c8b5d4e4_1795463347675_report.pdf' }], consent_form: [] },
  documents: [
    {
      path: 'documents/8f0c2b1d4e5a6b7c_1795463347700_cervix.jpg',
      document_type: 'IMAGE',
      symptom_tag: 'VIA',
    },
    { path: 'documents/1a2b3c4d5e6f7a8b_1795463347710_cervix.mp4', document_type: 'VIDEO' },
  ],
} as const;

export const ORCA_UPLOAD_EXAMPLE = {
  patient: 42,
  device_serial_number: 'IBE241071',
  local_db_id: 'o-9',
  date_time: '2026-03-01T10:00:00Z',
  license_code: 'ORC-7KQ2-M9XH-4TZD',
  file_path: { reports: [{ path: 'reports/55df5702c8b5d4e4_1795463347675_orca.pdf' }], consent_form: [] },
  case_history: { uses_tobacco: true, consumes_smokeless_tobacco: true, smokeless_history_time_months: 48 },
  findings: [
    {
      exam: 'intra_oral_exam',
      part: 'Buccal mucosa',
      sub_part: 'Left',
      index: 1,
      symptoms: ['White patch'],
      path: 'documents/8f0c2b1d4e5a6b7c_1795463347700_buccal.jpg',
    },
  ],
} as const;
