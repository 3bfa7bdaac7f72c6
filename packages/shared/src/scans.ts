// Breast scans (part 2 §3 Scan; architecture §7): the device upload `POST scan/` and the scan as the API shows it. The
// organization, the technician, the parent of a duplicate, the review fields (assessment_approved,
// training_scan_observation) and the timestamps are the server's: a device cannot set them.
import { z } from 'zod';
import {
  ASSESSMENT_RESULTS,
  BREAST_TYPES,
  PATIENT_MAX_AGE,
  RECERT_EXPIRY_DAYS_BEFORE,
  SCAN_ID_PREFIX,
  SCAN_TYPES,
} from './constants.ts';
import { ZSerialNumber } from './devices.ts';
import { SCAN_CELL_KEYS } from './scan-points.ts';
import type { TUploadFolder } from './files.ts';
import {
  INTEGER_MESSAGE,
  ZBoolParam,
  ZListQuery,
  ZSearchParam,
  ZPeriodQuery,
  decimalIntParam,
  idField,
  idParam,
  isId,
  isIsoDate,
  paginated,
} from './list.ts';
import { LOCAL_DB_ID_MAX, isoDateTime, pk, uploadedPath } from './patients.ts';
import { isPlatformAdmin, type TUserType } from './roles.ts';
import { MESSAGES, textField } from './validation.ts';

export type TScanType = (typeof SCAN_TYPES)[number];

export const SCAN_FINDING_MAX = 100;
export const SCAN_FINDINGS_MAX = 20;
export const SCAN_FILES_MAX = 10;
export const SCAN_NOTES_MAX = 1500;
export const SCAN_VERSION_MAX = 32;
export const SCAN_DEVICE_TEXT_MAX = 100;
/** Earliest scan time accepted; the latest is the server's now plus SCAN_TIME_FUTURE_TOLERANCE_MS (device clocks drift). */
export const SCAN_TIME_MIN = '2000-01-01T00:00:00Z';
export const SCAN_TIME_FUTURE_TOLERANCE_MS = 24 * 3600 * 1000;

/** Where each list of `scan_files_path` must have been uploaded (`POST file/upload/` with this folder). */
export const SCAN_FILE_FOLDERS = {
  reports: 'reports',
  consent_form: 'consent_forms',
  assessment_files: 'assessment_files',
} as const satisfies Record<string, TUploadFolder>;
export type TScanFileKind = keyof typeof SCAN_FILE_FOLDERS;

export const SCAN_MESSAGES = {
  breastType: `Select a valid choice: ${Object.entries(BREAST_TYPES)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ')}.`,
  scanType: `Select a valid choice: ${SCAN_TYPES.join(', ')}.`,
  assessmentResult: `Select a valid choice: ${ASSESSMENT_RESULTS.join(', ')}.`,
  scanTime: 'Enter a scan time between 2000-01-01 and now.',
  coordinatesTogether: 'Send latitude and longitude together.',
  latitude: 'Ensure latitude is between -90 and 90.',
  longitude: 'Ensure longitude is between -180 and 180.',
  measure: 'Ensure this value is between 0 and 300.',
} as const;

const maxChars = (n: number) => `Ensure this field has no more than ${n} characters.`;
const maxItems = (n: number) => `Ensure this field has no more than ${n} elements.`;
const LIST_MESSAGE = 'Expected a list of items.';
const OBJECT_MESSAGE = 'Expected an object.';
const BOOL_MESSAGE = 'Must be a valid boolean.';
const NUMBER_MESSAGE = 'A valid number is required.';

/** Optional one-line text: '' becomes null. */
const optionalText = (max: number) =>
  textField()
    .trim()
    .max(max, maxChars(max))
    .nullable()
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

const flag = () => z.boolean({ error: BOOL_MESSAGE }).default(false);

const number = (min: number, max: number, message: string) =>
  z
    .number({ error: NUMBER_MESSAGE })
    .min(min, message)
    .max(max, message)
    .nullable()
    .optional()
    .transform((v) => v ?? null);

const findings = () =>
  z
    .array(textField().trim().min(1, MESSAGES.required).max(SCAN_FINDING_MAX, maxChars(SCAN_FINDING_MAX)), {
      error: LIST_MESSAGE,
    })
    .max(SCAN_FINDINGS_MAX, maxItems(SCAN_FINDINGS_MAX))
    .default([]);

const storedFiles = () =>
  z
    .array(z.object({ path: uploadedPath() }, { error: OBJECT_MESSAGE }), { error: LIST_MESSAGE })
    .max(SCAN_FILES_MAX, maxItems(SCAN_FILES_MAX))
    .default([]);

/** The OpenAPI page's example of `POST scan/` (paths as `POST file/upload/` answered them). */
export const SCAN_UPLOAD_EXAMPLE = {
  patient: 42,
  device_serial_number: 'IBE241071',
  local_db_id: 's-305',
  scan_type: 'SCAN',
  date_time: '2026-03-01T10:00:00Z',
  breast_type: 2,
  left_breast_finding: ['mass'],
  right_breast_finding: [],
  has_symptoms: true,
  has_family_history: false,
  is_survivor: false,
  sensor_serial_number: 'SEN-77',
  tablet_serial_number: 'TAB-9',
  hardware_version: 'h3',
  software_version: 'v2.14',
  latitude: 18.52,
  longitude: 73.85,
  is_replay_available: true,
  notes: { message: 'Tender on palpation.' },
  metadata: { device: { device_model: 'Galaxy Tab S9', manufacturer: 'Samsung', os_version: '14' } },
  scan_files_path: {
    reports: [{ path: 'reports/55df5702c8b5d4e4_1795463347675_report.pdf' }],
    consent_form: [{ path: 'consent_forms/00454f97895805b2_1795463347730_consent.pdf' }],
    assessment_files: [],
  },
} as const;

/** `POST scan/` from a device. */
export const ZScanUpload = z
  .object(
    {
      /** A patient of the caller's organization (uploaded first with `POST patient/`). */
      patient: pk(),
      device_serial_number: ZSerialNumber,
      /** The scan's id in the device's database: with the device serial it identifies an upload (duplicates). */
      local_db_id: textField({ error: MESSAGES.required })
        .trim()
        .min(1, { error: MESSAGES.required, abort: true })
        .max(LOCAL_DB_ID_MAX, maxChars(LOCAL_DB_ID_MAX)),
      sensor_serial_number: optionalText(64),
      tablet_serial_number: optionalText(64),
      hardware_version: optionalText(SCAN_VERSION_MAX),
      software_version: optionalText(SCAN_VERSION_MAX),
      /** Scan time on the device. */
      date_time: isoDateTime(),
      scan_type: z.enum(SCAN_TYPES, { error: SCAN_MESSAGES.scanType }),
      breast_type: z
        .union([z.literal(1), z.literal(2), z.literal(3)], { error: SCAN_MESSAGES.breastType })
        .nullable()
        .optional()
        .transform((v) => v ?? null),
      left_breast_finding: findings(),
      right_breast_finding: findings(),
      is_survivor: flag(),
      has_family_history: flag(),
      has_symptoms: flag(),
      send_report_to_patient: flag(),
      sent_report_to_patient: flag(),
      is_replay_available: flag(),
      next_appointment_date: z
        .string({ error: 'Enter a valid date in YYYY-MM-DD format.' })
        .refine(isIsoDate, 'Enter a valid date in YYYY-MM-DD format.')
        .nullable()
        .optional()
        .transform((v) => v ?? null),
      under_bust: number(0, 300, SCAN_MESSAGES.measure),
      over_bust: number(0, 300, SCAN_MESSAGES.measure),
      latitude: number(-90, 90, SCAN_MESSAGES.latitude),
      longitude: number(-180, 180, SCAN_MESSAGES.longitude),
      /** The app's own assessment of a training or practice scan. */
      assessment_result: z
        .enum(ASSESSMENT_RESULTS, { error: SCAN_MESSAGES.assessmentResult })
        .default('NO_ASSESSMENT'),
      notes: z
        .object(
          {
            message: textField({ multiline: true })
              .trim()
              .max(SCAN_NOTES_MAX, maxChars(SCAN_NOTES_MAX))
              .nullable()
              .optional()
              .transform((v) => (v === '' || v === undefined ? null : v)),
          },
          { error: OBJECT_MESSAGE },
        )
        .default({ message: null }),
      metadata: z
        .object(
          {
            device: z
              .object(
                {
                  device_model: optionalText(SCAN_DEVICE_TEXT_MAX),
                  manufacturer: optionalText(SCAN_DEVICE_TEXT_MAX),
                  os_version: optionalText(SCAN_DEVICE_TEXT_MAX),
                },
                { error: OBJECT_MESSAGE },
              )
              .nullable()
              .optional()
              // Absent rather than null: stored metadata holds only what the device sent.
              .transform((v) => v ?? undefined),
          },
          { error: OBJECT_MESSAGE },
        )
        .default({ device: undefined }),
      /** Paths returned by `POST file/upload/` into the folder of each list (SCAN_FILE_FOLDERS). */
      scan_files_path: z
        .object(
          { reports: storedFiles(), assessment_files: storedFiles(), consent_form: storedFiles() },
          { error: OBJECT_MESSAGE },
        )
        .default({ reports: [], assessment_files: [], consent_form: [] }),
    },
    { error: OBJECT_MESSAGE },
  )
  .superRefine((s, ctx) => {
    if ((s.latitude === null) !== (s.longitude === null)) {
      ctx.addIssue({
        code: 'custom',
        path: [s.latitude === null ? 'latitude' : 'longitude'],
        message: SCAN_MESSAGES.coordinatesTogether,
      });
    }
  });
export type TScanUpload = z.output<typeof ZScanUpload>;
export type TScanUploadInput = z.input<typeof ZScanUpload>;

// ---- Responses ------------------------------------------------------------------------------------------------------

const ZStoredFile = z.object({ path: z.string() });

/** Part 2 §3 Scan as the API shows it (also the webhook body). */
export const ZScan = z.object({
  id: z.number(),
  patient: z
    .object({
      id: z.number(),
      first_name: z.string(),
      last_name: z.string(),
      mobile: z.string().nullable(),
      age: z.number().nullable(),
      date_of_birth: z.string().nullable(),
      email: z.string().nullable(),
      mobile_country_code: z.string().nullable(),
      clinic_patient_id: z.string().nullable(),
      physician_name: z.string().nullable(),
      physician_email: z.string().nullable(),
      reference_name: z.string().nullable(),
      created: z.string().nullable(),
      organization: z.number().nullable(),
      most_recent_mammogram_report: z.array(z.string()),
    })
    .nullable(),
  first_name: z.string().nullable(),
  device_serial_number: z.string().nullable(),
  sensor_serial_number: z.string().nullable(),
  tablet_serial_number: z.string().nullable(),
  hardware_version: z.string().nullable(),
  software_version: z.string().nullable(),
  organization: z.number().nullable(),
  organization_name: z.string().nullable(),
  organization_data: z.object({ name: z.string() }).nullable(),
  technician_data: z
    .object({ id: z.number(), first_name: z.string(), last_name: z.string(), username: z.string() })
    .nullable(),
  date_time: z.string().nullable(),
  created: z.string().nullable(),
  scan_type: z.enum(SCAN_TYPES),
  parent_scan_id: z.number().nullable(),
  is_replay_available: z.boolean(),
  scan_files_path: z.object({
    reports: z.array(ZStoredFile),
    assessment_files: z.array(ZStoredFile),
    consent_form: z.array(ZStoredFile),
  }),
  assessment_result: z.enum(ASSESSMENT_RESULTS),
  assessment_approved: z.boolean().nullable(),
  training_scan_observation: z.record(z.string(), z.unknown()),
  breast_type: z.number().nullable(),
  left_breast_finding: z.array(z.string()),
  right_breast_finding: z.array(z.string()),
  is_positive: z.boolean(),
  notes: z.record(z.string(), z.unknown()),
  is_survivor: z.boolean(),
  has_family_history: z.boolean(),
  has_symptoms: z.boolean(),
  send_report_to_patient: z.boolean(),
  sent_report_to_patient: z.boolean(),
  next_appointment_date: z.string().nullable(),
  under_bust: z.number().nullable(),
  over_bust: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  local_db_id: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type TScan = z.infer<typeof ZScan>;

export const ZScanSaved = ZScan.extend({ detail: z.string() });
export type TScanSaved = z.infer<typeof ZScanSaved>;

// ==== The console's breast scan list, detail, map, CSV, transfer and duplicates (part 2 §2.7–2.9, §6, §7, §9) ====

/** Roles that read breast scans in the console (architecture §6). TECHNICIAN and CERVAICAL_REVIEWER get 403. */
export const SCAN_LIST_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];
export const canListScans = (role: TUserType): boolean => SCAN_LIST_ROLES.includes(role);

/** Part 2 §6: Show duplicates on child scans and the duplicate filter: ADMIN and SUB_ADMIN. */
export const canSeeDuplicates = (role: TUserType): boolean => isPlatformAdmin(role);
/** Part 2 §6: Delete on duplicates (child scans only, after the confirm): ADMIN and SUB_ADMIN. */
export const canDeleteDuplicate = (role: TUserType): boolean => isPlatformAdmin(role);
/** Part 2 §6: the assigned/unassigned filter (`is_organization_id`): ADMIN and SUB_ADMIN. */
export const canFilterAssigned = (role: TUserType): boolean => isPlatformAdmin(role);
/**
 * The Organization column and its link (part 2 §2.7, §6, architecture §7b): ADMIN, SUB_ADMIN, MANAGER,
 * DISTRIBUTOR_ADMIN, only when no organization is fixed (not inside an organization page).
 */
export const showsOrganizationColumn = (role: TUserType, insideOrganization: boolean): boolean =>
  !insideOrganization && ['ADMIN', 'SUB_ADMIN', 'MANAGER', 'DISTRIBUTOR_ADMIN'].includes(role);

/**
 * Who may transfer a scan to another organization and technician (part 2 §2.9): the roles that transfer patients
 * (part 2 §6), each within its scope on both ends. An ORG_ADMIN's organization picker holds its own organization
 * only, so it moves scans between its technicians.
 */
export const SCAN_TRANSFER_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];
export const canTransferScan = (role: TUserType): boolean => SCAN_TRANSFER_ROLES.includes(role);

/** Technician filter and transfer candidates (part 2 §6): users of these types of the organization. */
export const SCAN_TECHNICIAN_TYPES = [
  'TECHNICIAN',
  'ORG_ADMIN',
  'DISTRIBUTOR_ADMIN',
] as const satisfies readonly TUserType[];
export type TScanTechnicianType = (typeof SCAN_TECHNICIAN_TYPES)[number];

/** A scan's ID as the console shows it: P- practice, T- training, S- scan, PT- pre-training (part 2 §9). */
export const scanIdLabel = (scanType: TScanType, id: number): string => `${SCAN_ID_PREFIX[scanType]}${id}`;

/**
 * Reads an ID typed into the search box ('S-123', 's123', 'PT-7', '123') back into its number, or null. The list's
 * search matches that scan id as well as patient names, mobiles and e-mails.
 */
export function parseScanIdLabel(text: string): number | null {
  const m = /^(?:(?:PT|P|T|S)-?)?(\d{1,10})$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return isId(n) ? n : null;
}

/**
 * The scan result as people read it (issue 23.12): Positive when either side has a finding (`is_positive`,
 * architecture §7). The list's Result column and its Scan result filter use the same words.
 */
export const SCAN_RESULT_LABELS = { positive: 'Positive', negative: 'Negative' } as const;
export const scanResultLabel = (isPositive: boolean): string =>
  isPositive ? SCAN_RESULT_LABELS.positive : SCAN_RESULT_LABELS.negative;

export const SCAN_MESSAGES_CONSOLE = {
  transferred: 'Scan Transferred Successfully',
  deleted: 'Scan Deleted Successfully',
  deleteConfirm: 'Are you sure you want to delete this scan?',
  emptyNoFilters: 'No scans yet!',
  emptyFiltered: 'No scans found!',
  idsLoadFailed: 'No data. Zoom in and try again.',
  notDuplicate: 'Only a duplicate scan (one with a parent scan) can be deleted.',
  onlyAdminsDuplicates: 'Only Super Admin and Sub Admin users may list or delete duplicate scans.',
  onlyAdminsAssigned: 'Only Super Admin and Sub Admin users may filter scans by assignment.',
  transferRole: 'You do not have permission to transfer scans.',
  technicianNotOfOrganization:
    'Select a valid Technician, ORG Admin or Distributor of the chosen organization.',
  sameOwner: 'The scan already belongs to this organization and technician.',
  ageRange: 'Ensure age_min is less than or equal to age_max.',
  ids: `Send between 1 and the allowed number of scan ids, each a whole number.`,
  listRole: 'Only console administrators of organizations may read breast scans.',
} as const;

// ---- List query ------------------------------------------------------------------------------------------------

/** Age slider of the filter panel (part 2 §9): 0–100. The API accepts 0–PATIENT_MAX_AGE. */
export const SCAN_AGE_FILTER = { min: 0, max: 100 } as const;
/** `ids` in a GET query (the map's small clusters); larger sets go in the body of `POST scan/ids/`. */
export const SCAN_IDS_QUERY_MAX = 200;
/** `ids_list` of `POST scan/ids/` (a big cluster at a low zoom). */
export const SCAN_IDS_BODY_MAX = 100_000;

/** The assigned filter's tabs (part 2 §2.7) and the `is_organization_id` each sends (all_scan sends nothing). */
export const SCAN_ASSIGNED_FILTERS = ['all_scan', 'unassigned', 'assigned'] as const;
export type TScanAssignedFilter = (typeof SCAN_ASSIGNED_FILTERS)[number];
export const assignedFilterParam = (f: TScanAssignedFilter): boolean | undefined =>
  f === 'all_scan' ? undefined : f === 'assigned';

export const SCAN_ORDERING_FIELDS = [
  'id',
  'date_time',
  'created',
  'first_name',
  'last_name',
  'device_serial_number',
  'sensor_serial_number',
  'organization_name',
  'technician_name',
  'scan_type',
] as const;
export const SCAN_DEFAULT_ORDERING = '-date_time';

const SERIAL_FILTER_MAX = 64;
const serialFilter = () =>
  textField().trim().min(1, MESSAGES.required).max(SERIAL_FILTER_MAX, maxChars(SERIAL_FILTER_MAX));

/** A comma list of scan ids in a query parameter ('12,15,90'). */
const idsParam = (max: number) =>
  z.string({ error: SCAN_MESSAGES_CONSOLE.ids }).transform((v, ctx) => {
    const parts = v
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const ids = parts.map((p) => (/^\d{1,10}$/.test(p) ? Number(p) : NaN));
    if (
      ids.length === 0 ||
      ids.length > max ||
      ids.some((n) => !isId(n))
    ) {
      ctx.addIssue({ code: 'custom', message: `Send between 1 and ${max} scan ids, each a whole number.` });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });

/** The filters of `GET scan/` that the map points, the CSV and `POST scan/ids/` share. */
export const scanFilterShape = {
  ...ZPeriodQuery.shape,
  search: ZSearchParam.optional(),
  using_read_db: ZBoolParam.optional(),
  /** Scans of this organization (in the caller's scope, else 404). Alias: organization_id. */
  organization: idParam('organization').optional(),
  organization_id: idParam('organization_id').optional(),
  /** Exact device serial number (any case). Alias `device` (the console's `?device=` link). */
  device_serial_number: serialFilter().optional(),
  device: serialFilter().optional(),
  sensor_serial_number: serialFilter().optional(),
  /** The scan's technician (user id). */
  technician: idParam('technician').optional(),
  /** The technician's user type (part 2 §2.7 "user type"). */
  user_type: z
    .enum(SCAN_TECHNICIAN_TYPES, { error: `Select a valid choice: ${SCAN_TECHNICIAN_TYPES.join(', ')}.` })
    .optional(),
  scan_type: z.enum(SCAN_TYPES, { error: `Select a valid choice: ${SCAN_TYPES.join(', ')}.` }).optional(),
  is_replay_available: ZBoolParam.optional(),
  /** is_survivor */
  survivor: ZBoolParam.optional(),
  /** A finding on either side (architecture §7). */
  is_positive: ZBoolParam.optional(),
  /** true: a finding on the left side; false: none. */
  left_breast_finding: ZBoolParam.optional(),
  right_breast_finding: ZBoolParam.optional(),
  /** has_symptoms */
  symptoms: ZBoolParam.optional(),
  /** has_family_history */
  family_history: ZBoolParam.optional(),
  /** Duplicates filter (ADMIN, SUB_ADMIN; else 403): true = duplicates (child scans) only, false = originals only. */
  is_parent_scan_id: ZBoolParam.optional(),
  /** Assigned filter (ADMIN, SUB_ADMIN; else 403): true = with an organization, false = without. */
  is_organization_id: ZBoolParam.optional(),
  /** Patient age, inclusive (the slider sends nothing at its ends). */
  age_min: decimalIntParam('age_min', 0, PATIENT_MAX_AGE).optional(),
  age_max: decimalIntParam('age_max', 0, PATIENT_MAX_AGE).optional(),
  patient: idParam('patient').optional(),
  /** The scans of a map cluster (up to SCAN_IDS_QUERY_MAX; more through `POST scan/ids/`). */
  ids: idsParam(SCAN_IDS_QUERY_MAX).optional(),
  /** Duplicates modal (ADMIN, SUB_ADMIN; else 403): the original scan with this id and its duplicates. */
  parent_scan_id: idParam('parent_scan_id').optional(),
};

/**
 * `GET scan/` (part 2 §7 Scans). Answer `{count, next, previous, results: TScanRow[]}`; `format=csv` streams
 * SCAN_CSV_FILENAME with exactly the rows the same filters select (all pages, recorded in the report log).
 */
export const ZScanListQuery = ZListQuery.extend(scanFilterShape)
  .extend({
    format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
    /** Sent by the original console with its CSV pages; accepted and ignored (every CSV is recorded). */
    report_log: ZBoolParam.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.age_min !== undefined && q.age_max !== undefined && q.age_min > q.age_max) {
      ctx.addIssue({ code: 'custom', path: ['age_min'], message: SCAN_MESSAGES_CONSOLE.ageRange });
    }
  });
export type TScanListQuery = z.infer<typeof ZScanListQuery>;
export type TScanListQueryInput = z.input<typeof ZScanListQuery>;

/** `GET scan/lat-long/`: the list's filters, no page (every matching scan with coordinates). */
export const ZScanPointsQuery = z.object(scanFilterShape).superRefine((q, ctx) => {
  if (q.age_min !== undefined && q.age_max !== undefined && q.age_min > q.age_max) {
    ctx.addIssue({ code: 'custom', path: ['age_min'], message: SCAN_MESSAGES_CONSOLE.ageRange });
  }
});
export type TScanPointsQuery = z.infer<typeof ZScanPointsQuery>;

/** `POST scan/ids/?page=&limit=&ordering=` (part 2 §7 scans-by-ids): the scans of a map cluster, in scope. */
export const ZScanIdsBody = z.object(
  {
    ids_list: z
      .array(
        idField(),
        {
          error: LIST_MESSAGE,
        },
      )
      .min(1, `Send between 1 and ${SCAN_IDS_BODY_MAX} scan ids.`)
      .max(SCAN_IDS_BODY_MAX, `Send between 1 and ${SCAN_IDS_BODY_MAX} scan ids.`),
  },
  { error: OBJECT_MESSAGE },
);
export type TScanIdsBody = z.infer<typeof ZScanIdsBody>;
/**
 * `POST scan/lat-long/cells/ids/?<the points' filters>` (console, issue 24): the ids of the scans in these cells of
 * the map's first picture (SCAN_CELL_DEGREES cells, keys as scanCellKey), at most SCAN_IDS_BODY_MAX — a cluster
 * clicked before the points have arrived. A read sent as POST: a cluster's cells do not fit in a URL.
 */
export const ZScanCellIdsBody = z.object(
  {
    cells: z
      .array(z.number().int().min(0).max(SCAN_CELL_KEYS - 1), { error: LIST_MESSAGE })
      .min(1, `Send between 1 and ${SCAN_CELL_KEYS} cell keys.`)
      .max(SCAN_CELL_KEYS, `Send between 1 and ${SCAN_CELL_KEYS} cell keys.`),
  },
  { error: OBJECT_MESSAGE },
);
export type TScanCellIdsBody = z.infer<typeof ZScanCellIdsBody>;
export const ZScanCellIds = z.object({ ids: z.array(z.number().int()) });
export const ZScanIdsQuery = ZListQuery.pick({
  page: true,
  limit: true,
  ordering: true,
  using_read_db: true,
});

/** Query of `GET scan/{id}/`. */
export const ZScanDetailQuery = z.object({
  using_read_db: ZBoolParam.optional(),
  /** `csv` downloads this one scan as SCAN_CSV_FILENAME (the view dialog's Download CSV), recorded in the report log. */
  format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
  report_log: ZBoolParam.optional(),
});

// ---- Rows and detail ---------------------------------------------------------------------------------------------

/**
 * One row of `GET scan/` and `POST scan/ids/`: the §3 Scan plus what the row's cells and actions need.
 * - `display_id`: 'S-123' (scanIdLabel).
 * - `organization_data`: id (the cell links to /organization/{id}) and name.
 * - `technician_data.user_type`; `device_id`: the registry id of device_serial_number (the cell opens the device
 *   dialog), null when the serial is not registered.
 * - `duplicates_count`: children of this scan (an original); 0 for a child.
 * - `review`: 'Unreviewed' | 'Correct' | 'Incorrect' for TRAINING and PRACTICE scans (scanReview), null otherwise.
 */
export const ZScanRow = ZScan.extend({
  display_id: z.string(),
  organization_data: z.object({ id: z.number(), name: z.string() }).nullable(),
  technician_data: z
    .object({
      id: z.number(),
      first_name: z.string(),
      last_name: z.string(),
      username: z.string(),
      user_type: z.string(),
    })
    .nullable(),
  device_id: z.number().nullable(),
  duplicates_count: z.number(),
  review: z.enum(['Unreviewed', 'Correct', 'Incorrect']).nullable(),
});
export type TScanRow = z.infer<typeof ZScanRow>;
export const ZScanList = paginated(ZScanRow);
export type TScanList = z.infer<typeof ZScanList>;

/**
 * `GET scan/{id}/`: the row plus the view dialog's facts (part 2 §2.8).
 * - `device_table`: device serial, hardware and software version, tablet serial, sensor serial, mobile model,
 *   manufacturer, OS version (from the scan and its metadata.device).
 * - `patient_data`: the patient table (date joined = patient created; gender).
 * - `parent`: the original's id and display id of a duplicate.
 */
export const ZScanDetail = ZScanRow.extend({
  device_table: z.object({
    device_serial_number: z.string().nullable(),
    hardware_version: z.string().nullable(),
    software_version: z.string().nullable(),
    tablet_serial_number: z.string().nullable(),
    sensor_serial_number: z.string().nullable(),
    mobile_model: z.string().nullable(),
    manufacturer: z.string().nullable(),
    os_version: z.string().nullable(),
  }),
  patient_gender: z.string().nullable(),
  parent: z.object({ id: z.number(), display_id: z.string() }).nullable(),
});
export type TScanDetail = z.infer<typeof ZScanDetail>;

/**
 * Re-certification and assessment labels (part 2 §4): a TRAINING or PRACTICE scan is Unreviewed until a reviewer
 * verified it (`training_scan_observation.practice_verified` true) and decided `assessment_approved`; then Correct
 * (approved) or Incorrect (not approved). Other scan types: null.
 */
export function scanReview(scan: {
  scan_type: TScanType;
  assessment_approved: boolean | null;
  training_scan_observation: Record<string, unknown>;
}): 'Unreviewed' | 'Correct' | 'Incorrect' | null {
  if (scan.scan_type !== 'TRAINING' && scan.scan_type !== 'PRACTICE') return null;
  if (scan.training_scan_observation.practice_verified !== true || scan.assessment_approved === null)
    return 'Unreviewed';
  return scan.assessment_approved ? 'Correct' : 'Incorrect';
}

/** Which view the Details dialog opens with (part 2 §2.8, §4): training and practice scans open the assessment. */
export const scanViewTitle = (scanType: TScanType, view: 'detail' | 'report' | 'assessment'): string =>
  view === 'detail'
    ? 'Scan Detail'
    : view === 'report'
      ? 'Report'
      : scanType === 'TRAINING'
        ? 'Training Assessment'
        : 'Practice Assessment';

export type TScanRowAction =
  'details' | 'replay' | 'report' | 'assessment' | 'duplicates' | 'delete' | 'transfer';

/**
 * Row actions of the scan list (part 2 §2.7, §4, §6): Details; Scan replay when a replay is available; Report when
 * a report file exists; Assessment for TRAINING/PRACTICE scans with an assessment file (else the Unreviewed
 * label); Show duplicates (ADMIN, SUB_ADMIN) on a child scan or an original with duplicates; Delete (ADMIN,
 * SUB_ADMIN) on a child scan; Transfer for SCAN_TRANSFER_ROLES.
 */
export function scanRowActions(
  role: TUserType,
  row: Pick<
    TScanRow,
    'scan_type' | 'is_replay_available' | 'scan_files_path' | 'parent_scan_id' | 'duplicates_count'
  >,
): TScanRowAction[] {
  const actions: TScanRowAction[] = ['details'];
  if (row.is_replay_available) actions.push('replay');
  if (row.scan_files_path.reports.length > 0) actions.push('report');
  if (
    (row.scan_type === 'TRAINING' || row.scan_type === 'PRACTICE') &&
    row.scan_files_path.assessment_files.length > 0
  )
    actions.push('assessment');
  if (canSeeDuplicates(role) && (row.parent_scan_id !== null || row.duplicates_count > 0))
    actions.push('duplicates');
  if (canDeleteDuplicate(role) && row.parent_scan_id !== null) actions.push('delete');
  if (canTransferScan(role)) actions.push('transfer');
  return actions;
}

/** The replay page of a scan (part 2 §2.7): opened in a new tab; `re-certify=true` inside re-certification. */
export const scanReplayPath = (id: number, recertify = false): string =>
  `/chart/?id=${id}${recertify ? '&re-certify=true' : ''}`;

/** The parent whose duplicates "Show duplicates" lists: a child's parent, or the original itself. */
export const duplicatesParentId = (row: Pick<TScanRow, 'id' | 'parent_scan_id'>): number =>
  row.parent_scan_id ?? row.id;

// ---- Transfer and delete ---------------------------------------------------------------------------------------

/** `POST scan/{id}/transfer/` (part 2 §2.9, §7): both required. Answer ZScanSavedRow. */
export const ZScanTransferInput = z.object(
  {
    organization_id: pk(),
    technician_id: pk(),
  },
  { error: OBJECT_MESSAGE },
);
export type TScanTransferInput = z.infer<typeof ZScanTransferInput>;
export const ZScanRowSaved = ZScanRow.extend({ detail: z.string() });
export type TScanRowSaved = z.infer<typeof ZScanRowSaved>;
/** `DELETE scan/{id}/` answers 200 with this body. */
export const ZScanDeleted = z.object({ detail: z.string(), id: z.number() });

// ---- Map points (part 2 §2.7 Map, §3 Map point, §9) --------------------------------------------------------------

// The packed format of `GET scan/lat-long/` lives in scan-points.ts (no zod: the map's worker imports it).
export * from './scan-points.ts';

// ---- Lookups for the filter panel (part 2 §7) ------------------------------------------------------------------

/**
 * `GET scan/sensor-serial-numbers/?search=&organization=` → `{sensor_serial_numbers: string[]}`: distinct sensor
 * serials of the scans in scope starting with `search` (any case), sorted, at most SCAN_LOOKUP_LIMIT.
 * `GET scan/devices/?search=&organization=` → `{devices: string[]}`: the same for device serial numbers.
 * Technician candidates: `GET organization/user/?user_type=TECHNICIAN&user_type=ORG_ADMIN&user_type=DISTRIBUTOR_ADMIN`.
 */
export const SCAN_LOOKUP_LIMIT = 50;
export const ZScanLookupQuery = z.object({
  search: textField().trim().max(SERIAL_FILTER_MAX, maxChars(SERIAL_FILTER_MAX)).optional(),
  organization: idParam('organization').optional(),
  using_read_db: ZBoolParam.optional(),
});
export const ZScanSensorList = z.object({ sensor_serial_numbers: z.array(z.string()) });
export const ZScanDeviceList = z.object({ devices: z.array(z.string()) });

// ---- Report log (part 2 §7 "scan report log"; architecture §7b: ADMIN) ----------------------------------------------

/** `GET scan/report-log/?page=&limit=&search=&ordering=` (ADMIN): the CSV and report downloads, newest first. */
export const REPORT_LOG_ROLES: readonly TUserType[] = ['ADMIN'];
export const REPORT_LOG_ORDERING_FIELDS = ['id', 'created', 'api', 'user_type'] as const;
export const ZReportLogQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  user: idParam('user').optional(),
});
export const ZReportLogRow = z.object({
  id: z.number(),
  api: z.string(),
  api_qp: z.record(z.string(), z.unknown()),
  requested_method: z.string(),
  user_agent: z.string().nullable(),
  user: z.number().nullable(),
  user_data: z
    .object({ id: z.number(), first_name: z.string(), last_name: z.string(), username: z.string() })
    .nullable(),
  user_type: z.string().nullable(),
  created: z.string(),
});
export type TReportLogRow = z.infer<typeof ZReportLogRow>;
export const ZReportLogList = paginated(ZReportLogRow);

// ---- CSV (part 2 §9) ---------------------------------------------------------------------------------------------

export const SCAN_CSV_FILENAME = 'scan_details.csv';
/**
 * The §9 columns in this order, and the scan's organization (issue 23.14: a file of several clinics says whose each
 * scan is). Is Positive: Yes when either side has a finding. Findings joined with '; '. Notes: commas replaced by
 * spaces (as the original). Flags as Yes/No. Date Time in the caller's zone (CSV_DATE_TIME_FORMAT, the zone in its
 * header: SCAN_CSV_TIME_COLUMNS). Breast Type in words (BREAST_TYPES).
 */
export const SCAN_CSV_COLUMNS = [
  'First Name',
  'Last Name',
  'Age',
  'Date of Birth',
  'Mobile',
  'Email',
  'ID',
  'Physician Name',
  'Date Time',
  'Organization',
  'Technician Name',
  'Breast Type',
  'Is Positive',
  'Left Breast Finding',
  'Right Breast Finding',
  'Notes',
  'Survivor',
  'Family History',
  'Symptoms',
  'Device Serial Number',
  'Sensor Serial Number',
  'Software Version',
  'Reference',
] as const;
/** The scan CSV's columns of times, whose headers name the zone (csvHeader). */
export const SCAN_CSV_TIME_COLUMNS: readonly (typeof SCAN_CSV_COLUMNS)[number][] = ['Date Time'];
/** Notes in the CSV: commas replaced (part 2 §9), line breaks flattened. */
export const csvNotes = (message: string | null | undefined): string =>
  (message ?? '').replace(/,/g, ' ').replace(/\r\n|\r|\n/g, ' ');

// ---- Technician scan summary and re-certification (part 2 §2.10, §2.11, §3, §7; part 3 §7) -----------------------

/**
 * Who opens the re-certification page and its technician modal (part 1 §6, Users dropdown "Re-Certify"), and who
 * reads `GET scan/technician-summary/`. The re-certify call itself is `canReCertify` (user-permissions.ts).
 */
export const RECERTIFICATION_ROLES: readonly TUserType[] = ['SUB_ADMIN', 'MANAGER', 'ADMIN', 'DISTRIBUTOR_ADMIN'];
export const canOpenReCertification = (role: TUserType): boolean => RECERTIFICATION_ROLES.includes(role);

const REQUIRED_MESSAGE = 'This field is required.';

/**
 * `GET scan/technician-summary/?technician=&date_time_after=&date_time_before=`: the SCAN-type scans of one
 * technician (a user of SCAN_TECHNICIAN_TYPES in the caller's scope, else 404) within the period, counting only
 * scans of organizations in the caller's scope. The console sends the re-certification window
 * (`technicianScanWindow`).
 */
export const ZTechnicianSummaryQuery = z.object({
  technician: z
    .union([z.string(), z.number()], {
      error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : INTEGER_MESSAGE),
    })
    .pipe(idParam('technician')),
  date_time_after: ZPeriodQuery.shape.date_time_after,
  date_time_before: ZPeriodQuery.shape.date_time_before,
  using_read_db: ZBoolParam.optional(),
});
export type TTechnicianSummaryQuery = z.infer<typeof ZTechnicianSummaryQuery>;

/** Part 2 §3 "Technician scan summary". Positivity: one decimal, 0 without scans. */
export const ZTechnicianSummary = z.object({
  scans_in_data_range_count: z.number().int(),
  positive_scans_in_data_range_count: z.number().int(),
  positivity_rate_in_data_range_count: z.number(),
  /** The latest SCAN-type scan time in the period (ISO 8601), null without scans. */
  most_recent_scan_date: z.string().nullable(),
});
export type TTechnicianSummary = z.infer<typeof ZTechnicianSummary>;

/** YYYY-MM-DD plus or minus whole days (calendar arithmetic in UTC, so no zone can move the date). */
export function addIsoDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The re-certification window of a technician (part 2 §2.11, §4, §7): from RECERT_EXPIRY_DAYS_BEFORE days before the
 * certificate's expiry through `today`; the summary, the map and the scan list of the modal all read it. Without an
 * expiry date there is no window (all time).
 */
export function technicianScanWindow(
  expiry: string | null,
  today: string,
): { date_time_after: string; date_time_before: string } | null {
  if (!expiry) return null;
  const after = addIsoDays(expiry, -RECERT_EXPIRY_DAYS_BEFORE);
  // A window that would start after today (a certificate far from expiry) is today alone.
  return { date_time_after: after <= today ? after : today, date_time_before: today };
}

/** Texts of the re-certification page and modal (part 2 §2.10–2.11; architecture §7b for the empty text). */
export const RECERTIFICATION_MESSAGES = {
  empty: 'No records found.',
  notFound: 'Technician not found.',
  /** The spec gives no wording for this confirm. */
  confirm: (name: string) =>
    `Are you sure you want to re-certify ${name}? A new year of certification starts today.`,
} as const;

/**
 * The title of a map marker's scan list: 'Scans', or, for a cluster of more scans than `POST scan/ids/` takes
 * (SCAN_IDS_BODY_MAX), which part of it the list holds.
 */
export function clusterListTitle(listed: number, total: number): string {
  if (total <= listed) return 'Scans';
  const n = (v: number) => v.toLocaleString('en');
  return `Scans: the first ${n(listed)} of ${n(total)} (zoom in to list the others)`;
}
