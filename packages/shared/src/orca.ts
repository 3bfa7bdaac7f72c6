// ORCA (oral cancer screening) exams in the console (part 3 §2 ORCA list, detail and finding modals, §3 ORCA scan,
// case history and finding, §7 ORCA, §9 CSV orca-scan): the list query, the row and detail shapes, the CSV columns,
// who reads them, and the pure rules the screens share (Summary/Report only with a report file, months as years,
// findings grouped by body part in index order).
import { z } from 'zod';
import { ORCA_EXAMS, PATIENT_MAX_AGE, TOBACCO_FREQUENCIES } from './constants.ts';
import { ZBoolParam, ZListQuery, ZPeriodQuery, decimalIntParam, idParam, paginated } from './list.ts';
import type { TUserType } from './roles.ts';
import { MESSAGES, textField } from './validation.ts';

export type TOrcaExamKind = (typeof ORCA_EXAMS)[number];

/** Who reads ORCA exams (architecture §6): the breast scan readers; TECHNICIAN and CERVAICAL_REVIEWER get 403. */
export const ORCA_LIST_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];
export const canListOrca = (role: TUserType): boolean => ORCA_LIST_ROLES.includes(role);

export const ORCA_MESSAGES = {
  listRole: 'Only console administrators of organizations may read ORCA exams.',
  emptyNoFilters: 'No Exams yet!',
  emptyFiltered: 'No Exams found!',
  noSymptom: 'No symptom found',
  noAbnormality: 'No abnormality found.',
  ageRange: 'Ensure age_min is less than or equal to age_max.',
  detailTitle: 'ORCA Detail',
  reportTitle: 'Report',
  findingTitle: 'ORCA Finding',
} as const;

/** File errors in the exam views show in red for this long (part 3 §8, §9: file errors 3 s). */
export const ORCA_FILE_ERROR_MS = 3000;

/** The finding modal's accordion (part 3 §2), in this order; each exam section lists the findings of its kind. */
export const ORCA_SECTIONS = [
  { key: 'case_history', label: 'Case History' },
  { key: 'extra_oral_exam', label: 'Extra Oral Examination' },
  { key: 'intra_oral_exam', label: 'Intra Oral Examination' },
  { key: 'lymph_node_exam', label: 'Lymph Node Examination' },
] as const satisfies readonly { key: 'case_history' | TOrcaExamKind; label: string }[];

// ---- List query ------------------------------------------------------------------------------------------------

export const ORCA_ORDERING_FIELDS = [
  'id',
  'date_time',
  'created',
  'first_name',
  'last_name',
  'organization_name',
  'technician_name',
  'licence_code',
  'device_serial_number',
] as const;
export const ORCA_DEFAULT_ORDERING = '-date_time';

const SERIAL_FILTER_MAX = 64;
const filterText = () =>
  textField()
    .trim()
    .min(1, MESSAGES.required)
    .max(SERIAL_FILTER_MAX, `Ensure this field has no more than ${SERIAL_FILTER_MAX} characters.`);

/**
 * `GET orca/` (part 3 §7 ORCA: the cervical list's filters that mean something for an oral exam). `is_positive`: at
 * least one finding with a symptom. `format=csv` streams ORCA_CSV_FILENAME with every row the filters select.
 */
export const ZOrcaListQuery = ZListQuery.extend(ZPeriodQuery.shape)
  .extend({
    organization: idParam('organization').optional(),
    organization_id: idParam('organization_id').optional(),
    /** Exact device serial number (any case); `device` is the console's `?device=` link. */
    device_serial_number: filterText().optional(),
    device: filterText().optional(),
    technician: idParam('technician').optional(),
    patient: idParam('patient').optional(),
    licence_code: filterText().optional(),
    survivor: ZBoolParam.optional(),
    symptoms: ZBoolParam.optional(),
    family_history: ZBoolParam.optional(),
    cancer_history: ZBoolParam.optional(),
    is_positive: ZBoolParam.optional(),
    /** true: a report file exists (Summary and Report are offered). */
    has_report: ZBoolParam.optional(),
    age_min: decimalIntParam('age_min', 0, PATIENT_MAX_AGE).optional(),
    age_max: decimalIntParam('age_max', 0, PATIENT_MAX_AGE).optional(),
    format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
    /** Sent by the original console with its CSV pages; accepted and ignored (every CSV is recorded). */
    report_log: ZBoolParam.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.age_min !== undefined && q.age_max !== undefined && q.age_min > q.age_max) {
      ctx.addIssue({ code: 'custom', path: ['age_min'], message: ORCA_MESSAGES.ageRange });
    }
  });
export type TOrcaListQuery = z.infer<typeof ZOrcaListQuery>;
export type TOrcaListQueryInput = z.input<typeof ZOrcaListQuery>;

export const ZOrcaDetailQuery = z.object({ using_read_db: ZBoolParam.optional() });

// ---- Rows and detail -----------------------------------------------------------------------------------------

const ZStoredFile = z.object({ path: z.string() });

/** One row of `GET orca/` (part 3 §3 ORCA scan). */
export const ZOrcaRow = z.object({
  id: z.number(),
  patient: z.number().nullable(),
  patient_data: z
    .object({
      id: z.number(),
      first_name: z.string(),
      last_name: z.string(),
      age: z.number().nullable(),
      gender: z.string().nullable(),
      date_of_birth: z.string().nullable(),
      mobile: z.string().nullable(),
      mobile_country_code: z.string().nullable(),
      email: z.string().nullable(),
      physician_name: z.string().nullable(),
      local_db_id: z.string().nullable(),
      clinic_patient_id: z.string().nullable(),
      created: z.string().nullable(),
      organization_data: z.object({ name: z.string() }).nullable(),
    })
    .nullable(),
  technician: z.number().nullable(),
  technician_data: z.object({ id: z.number(), first_name: z.string(), last_name: z.string() }).nullable(),
  organization: z.number().nullable(),
  organization_data: z.object({ id: z.number(), name: z.string() }).nullable(),
  licence_code: z.string().nullable(),
  current_report_count: z.number().nullable(),
  tablet_serial_number: z.string().nullable(),
  device_serial_number: z.string().nullable(),
  sensor_serial_number: z.string().nullable(),
  software_version: z.string().nullable(),
  under_bust: z.number().nullable(),
  over_bust: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  local_db_id: z.string().nullable(),
  date_time: z.string(),
  created: z.string(),
  is_survivor: z.boolean(),
  has_symptoms: z.boolean(),
  has_family_history: z.boolean(),
  cancer_history: z.boolean(),
  file_path: z.object({ reports: z.array(ZStoredFile), consent_form: z.array(ZStoredFile) }),
  metadata: z.object({
    device: z
      .object({
        device_model: z.string().nullable().optional(),
        manufacturer: z.string().nullable().optional(),
        os_version: z.string().nullable().optional(),
      })
      .optional(),
  }),
});
export type TOrcaRow = z.infer<typeof ZOrcaRow>;
export const ZOrcaList = paginated(ZOrcaRow);
export type TOrcaList = z.infer<typeof ZOrcaList>;

/** Part 3 §3 ORCA case-history fields; durations are months (shown as years). */
export const ZOrcaCaseHistory = z.object({
  consumes_alcohol: z.boolean(),
  alcohol_usage_last_year: z.string().nullable(),
  consumes_other_substance: z.boolean(),
  other_substance_consumed: z.array(z.string()),
  has_hypertension: z.boolean(),
  had_heart_attack: z.boolean(),
  has_asthma_bronchitis: z.boolean(),
  has_diabetes: z.boolean(),
  has_stroke: z.boolean(),
  uses_tobacco: z.boolean(),
  consumes_smoking_tobacco: z.boolean(),
  smoking_tobacco_type: z.array(z.string()),
  smoking_tobacco_usage_frequency: z.enum(TOBACCO_FREQUENCIES).nullable(),
  smoking_history_time_months: z.number().nullable(),
  smokes_per_unit: z.number().nullable(),
  smoke_count_unit: z.string().nullable(),
  smoking_quit_months_ago: z.number().nullable(),
  consumes_smokeless_tobacco: z.boolean(),
  smokeless_tobacco_type: z.array(z.string()),
  smokeless_tobacco_usage_frequency: z.enum(TOBACCO_FREQUENCIES).nullable(),
  smokeless_history_time_months: z.number().nullable(),
  smokeless_packets_count_unit: z.number().nullable(),
  smokeless_packets_duration_unit: z.string().nullable(),
  smokeless_quit_months_ago: z.number().nullable(),
});
export type TOrcaCaseHistory = z.infer<typeof ZOrcaCaseHistory>;

/** Part 3 §3 ORCA finding; `path` is the stored image (read through `GET file/?path=`). */
export const ZOrcaFinding = z.object({
  id: z.number(),
  exam: z.enum(ORCA_EXAMS),
  part: z.string(),
  sub_part: z.string().nullable(),
  index: z.number(),
  symptoms: z.array(z.string()),
  path: z.string().nullable(),
});
export type TOrcaFinding = z.infer<typeof ZOrcaFinding>;

/** `GET orca/{id}/`: the row, its case history (null when the app sent none) and its findings in index order. */
export const ZOrcaDetail = ZOrcaRow.extend({
  case_history: ZOrcaCaseHistory.nullable(),
  findings: z.array(ZOrcaFinding),
});
export type TOrcaDetail = z.infer<typeof ZOrcaDetail>;

// ---- Rules the screens share ------------------------------------------------------------------------------------

/** Summary (the finding modal) and Report are offered only when the exam has a report file (part 3 §2). */
export const hasOrcaReport = (row: Pick<TOrcaRow, 'file_path'>): boolean => row.file_path.reports.length > 0;

export type TOrcaRowAction = 'details' | 'summary' | 'report';
export const orcaRowActions = (row: Pick<TOrcaRow, 'file_path'>): TOrcaRowAction[] =>
  hasOrcaReport(row) ? ['details', 'summary', 'report'] : ['details'];

/** Months shown as years (part 3 §9: divided by 12), at most one decimal: 18 → '1.5', 24 → '2'. */
export function monthsAsYears(months: number | null | undefined): string | null {
  if (months === null || months === undefined) return null;
  return String(Math.round((months / 12) * 10) / 10);
}

export type TOrcaFindingGroup = { part: string; findings: TOrcaFinding[] };

/**
 * The findings of one exam kind grouped by body part (part 3 §2): findings in index order (then id), each part
 * placed where its first finding falls, so the groups follow the exam's own order.
 */
export function groupOrcaFindings(
  findings: readonly TOrcaFinding[],
  exam: TOrcaExamKind,
): TOrcaFindingGroup[] {
  const sorted = findings.filter((f) => f.exam === exam).sort((a, b) => a.index - b.index || a.id - b.id);
  const groups: TOrcaFindingGroup[] = [];
  for (const finding of sorted) {
    const group = groups.find((g) => g.part === finding.part);
    if (group) group.findings.push(finding);
    else groups.push({ part: finding.part, findings: [finding] });
  }
  return groups;
}

/** A finding with a symptom is an abnormality; an exam is positive when it has one. */
export const isOrcaPositive = (findings: readonly Pick<TOrcaFinding, 'symptoms'>[]): boolean =>
  findings.some((f) => f.symptoms.length > 0);

// ---- CSV (part 3 §9: file name orca-scan) -------------------------------------------------------------------------

export const ORCA_CSV_FILENAME = 'orca-scan.csv';
export const ORCA_CSV_COLUMNS = [
  'ID',
  'First Name',
  'Last Name',
  'Age',
  'Gender',
  'Mobile',
  'Email',
  'Organization',
  'Technician Name',
  'Licence Code',
  'Scan Time',
  'Synced On',
  'Survivor',
  'Symptoms',
  'Family History',
  'Cancer History',
  'Uses Tobacco',
  'Consumes Alcohol',
  'Abnormal Findings',
  'Device Serial Number',
  'Tablet Serial Number',
  'Software Version',
] as const;
/** The ORCA CSV's columns of times, whose headers name the zone (csvHeader). */
export const ORCA_CSV_TIME_COLUMNS: readonly (typeof ORCA_CSV_COLUMNS)[number][] = ['Scan Time', 'Synced On'];
