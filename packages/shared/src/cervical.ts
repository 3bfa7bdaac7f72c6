// Cervical (Cervaical) exams (part 3 §2 list/detail/review, §3, §5, §6, §7, §9; architecture §7 two-reviewer workflow):
// the list query, row, detail, review documents, review input, adjudication and reviewer agreement, with the role
// rules the API enforces and the console hides by. Beyond the spec: blinding (a reviewer sees another reviewer's
// answers only once they cannot review the exam any more) and an ADMIN's final read of a disagreement.
import { z } from 'zod';
import { DOCUMENT_TYPES, REVIEWER_STATUSES, REVIEW_STATUSES } from './constants.ts';
import { ZBoolParam, ZListQuery, idField, idParam, paginated } from './list.ts';
import type { TUserType } from './roles.ts';
import { scanFilterShape } from './scans.ts';
import { textField } from './validation.ts';

export type TReviewerStatus = (typeof REVIEWER_STATUSES)[number];
export type TReviewStatus = (typeof REVIEW_STATUSES)[number];
export type TDocumentType = (typeof DOCUMENT_TYPES)[number];

/** Who reads the list, the detail and the CSV (the menu's roles, plus ORG_ADMIN through the organization tab). */
export const CERVICAL_LIST_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
  'CERVAICAL_REVIEWER',
];
export const canListCervical = (role: TUserType): boolean => CERVICAL_LIST_ROLES.includes(role);
/** Part 3 §6: the Review button (the review modal, read-only unless a rule below allows a write). */
export const CERVICAL_REVIEW_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'ORG_ADMIN', 'CERVAICAL_REVIEWER'];
export const canOpenReview = (role: TUserType): boolean => CERVICAL_REVIEW_ROLES.includes(role);
/** Part 3 §6: CERVAICAL_REVIEWER adds reviews (its own, where it has none). */
export const canAddReview = (role: TUserType): boolean => role === 'CERVAICAL_REVIEWER';
/** Part 3 §6: ADMIN edits existing reviews. */
export const canEditReview = (role: TUserType): boolean => role === 'ADMIN';
/** The third, final read of a disagreement: ADMIN. */
export const canAdjudicate = (role: TUserType): boolean => role === 'ADMIN';

export const CERVICAL_CSV_FILENAME = 'cervaical.csv';
export const CERVICAL_REVIEW_LIST_LIMIT = 100;
/** Exams at most two reviewers review (architecture §7). */
export const CERVICAL_REVIEWERS_PER_EXAM = 2;

export const CERVICAL_MESSAGES = {
  title: 'Cervaical',
  detailTitle: 'Cervaical Detail',
  reportTitle: 'Report',
  reviewTitle: 'Review',
  searchPlaceholder: 'Search by name, mobile no',
  emptyNoFilters: 'No Exams yet!',
  emptyFiltered: 'No Exams found!',
  idsLoadFailed: 'No data. Zoom in and try again.',
  reviewSaved: 'Review updated Successfully',
  adjudicated: 'Final read saved Successfully',
  reviewStatusRequired: 'This field is required.',
  listRole: 'You do not have permission to read cervical exams.',
  reviewRole: 'You do not have permission to review cervical exams.',
  addRole: 'Only Cervaical reviewers may add reviews.',
  editRole: 'Only Super Admin users may edit a review.',
  alreadyReviewed: 'You have already reviewed this document; only a Super Admin may change a review.',
  examFull: 'This exam already has two reviewers.',
  adjudicateRole: 'Only Super Admin users may adjudicate.',
  notDisagreement: 'Only an exam whose two reviewers disagree can be adjudicated.',
  unknownQuality: 'Select a valid quality.',
  unknownFinding: 'Select a valid clinical finding.',
  requiredQuality: (name: string) => `'${name}' must be checked.`,
  invalidNeedsNoAnswers: 'An invalid photo needs no quality or finding checked; check only what holds.',
  duplicateItem: 'Each item may be sent once.',
  ageRange: 'Ensure age_min is less than or equal to age_max.',
} as const;

export const REVIEWER_STATUS_LABELS: Record<TReviewerStatus, string> = {
  NOT_REVIEWED: 'Not Reviewed',
  VALID: 'Valid',
  IN_VALID: 'Invalid',
};
export const REVIEW_STATUS_LABELS: Record<TReviewStatus, string> = { VALID: 'Valid', IN_VALID: 'Invalid' };

// ---- What a review must answer (architecture §7b; issue 23.5) --------------------------------------------------------

/**
 * A quality or finding marked required must be checked — on a Valid review only. The qualities describe a usable
 * photo ('Image in focus', 'Cervix fully visible'), and Invalid says the photo is not usable, so an Invalid review
 * requires none of them; what the reviewer did check is stored as checked, nothing is stored as true for them. A
 * review without a status yet is held to the Valid rule (its status is refused anyway).
 */
export const reviewRequiresAnswers = (status: TReviewStatus | null | undefined): boolean => status !== 'IN_VALID';

/** The first option a review of `status` must check but did not, else undefined (the API and the console ask this). */
export function missingRequiredAnswer<T extends { id: number; required: boolean }>(
  status: TReviewStatus | null | undefined,
  options: readonly T[],
  checked: readonly number[],
): T | undefined {
  if (!reviewRequiresAnswers(status)) return undefined;
  return options.find((o) => o.required && !checked.includes(o.id));
}

// ---- architecture §7: reviewer 1 and 2 and their statuses -----------------------------------------------------------

export type TReviewFact = { documentId: number; userId: number; status: TReviewStatus; at: Date | string };
export type TReviewerSlot = { userId: number; status: TReviewerStatus } | null;

/**
 * The first reviewer of the exam's documents (earliest review, then lowest user id) is reviewer 1, the second
 * reviewer 2. A reviewer is NOT_REVIEWED until they have reviewed every document, then VALID if every one of their
 * reviews is valid, else IN_VALID. An exam without documents has nobody to review it.
 */
export function computeReviewerSlots(
  documentIds: readonly number[],
  reviews: readonly TReviewFact[],
): { one: TReviewerSlot; two: TReviewerSlot } {
  const docs = new Set(documentIds);
  const firstAt = new Map<number, number>();
  for (const r of reviews) {
    if (!docs.has(r.documentId)) continue;
    const t = new Date(r.at).getTime();
    const seen = firstAt.get(r.userId);
    if (seen === undefined || t < seen) firstAt.set(r.userId, t);
  }
  const order = [...firstAt.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([u]) => u);
  const slot = (userId: number | undefined): TReviewerSlot => {
    if (userId === undefined) return null;
    const mine = reviews.filter((r) => r.userId === userId && docs.has(r.documentId));
    const reviewed = new Set(mine.map((r) => r.documentId));
    if (reviewed.size < docs.size) return { userId, status: 'NOT_REVIEWED' };
    return { userId, status: mine.every((r) => r.status === 'VALID') ? 'VALID' : 'IN_VALID' };
  };
  return { one: slot(order[0]), two: slot(order[1]) };
}

/** Both reviewers finished and disagree: the exam waits for (or has) an ADMIN's final read. */
export const isDisagreement = (one: TReviewerStatus, two: TReviewerStatus): boolean =>
  one !== 'NOT_REVIEWED' && two !== 'NOT_REVIEWED' && one !== two;

/**
 * Blinding: may `viewerId` (a CERVAICAL_REVIEWER) see the answers of the other reviewer? Only once the viewer cannot
 * add a review to the exam any more: they finished their own (their status is not NOT_REVIEWED), or both slots
 * belong to others. The API's presenter applies this to list rows, the detail and the review documents.
 */
export function reviewerSeesOthers(
  viewerId: number,
  exam: {
    reviewer_one_id: number | null;
    reviewer_one_status: TReviewerStatus;
    reviewer_two_id: number | null;
    reviewer_two_status: TReviewerStatus;
  },
): boolean {
  if (exam.reviewer_one_id === viewerId) return exam.reviewer_one_status !== 'NOT_REVIEWED';
  if (exam.reviewer_two_id === viewerId) return exam.reviewer_two_status !== 'NOT_REVIEWED';
  return exam.reviewer_one_id !== null && exam.reviewer_two_id !== null;
}

// ---- List query ---------------------------------------------------------------------------------------------------

export const CERVICAL_ORDERING_FIELDS = [
  'id',
  'date_time',
  'created',
  'first_name',
  'last_name',
  'device_serial_number',
  'organization_name',
  'technician_name',
  'reviewer_one_status',
  'reviewer_two_status',
] as const;
export const CERVICAL_DEFAULT_ORDERING = '-date_time';

const reviewerStatusParam = (name: string) =>
  z.enum(REVIEWER_STATUSES, { error: `Select a valid choice for ${name}: ${REVIEWER_STATUSES.join(', ')}.` });

/** Part 3 §7 Cervical list: the breast scan's filters that a cervical row has, plus the reviewer filters. */
export const cervicalFilterShape = {
  date_time_after: scanFilterShape.date_time_after,
  date_time_before: scanFilterShape.date_time_before,
  created_after: scanFilterShape.created_after,
  created_before: scanFilterShape.created_before,
  day: scanFilterShape.day,
  month: scanFilterShape.month,
  search: scanFilterShape.search,
  using_read_db: scanFilterShape.using_read_db,
  organization: scanFilterShape.organization,
  device_serial_number: scanFilterShape.device_serial_number,
  /** Alias of device_serial_number (the console's `?device=` link). */
  device: scanFilterShape.device,
  technician: scanFilterShape.technician,
  survivor: scanFilterShape.survivor,
  is_positive: scanFilterShape.is_positive,
  left_breast_finding: scanFilterShape.left_breast_finding,
  right_breast_finding: scanFilterShape.right_breast_finding,
  symptoms: scanFilterShape.symptoms,
  family_history: scanFilterShape.family_history,
  age_min: scanFilterShape.age_min,
  age_max: scanFilterShape.age_max,
  patient: scanFilterShape.patient,
  reviewer_one_status: reviewerStatusParam('reviewer_one_status').optional(),
  reviewer_two_status: reviewerStatusParam('reviewer_two_status').optional(),
  /** Beyond the spec: both reviewers finished and disagree. */
  disagreement: ZBoolParam.optional(),
  /** With disagreement: true = an ADMIN made the final read; false = waiting for it. */
  adjudicated: ZBoolParam.optional(),
};

const ageOrder = (q: { age_min?: number; age_max?: number }, ctx: z.RefinementCtx) => {
  if (q.age_min !== undefined && q.age_max !== undefined && q.age_min > q.age_max) {
    ctx.addIssue({ code: 'custom', path: ['age_min'], message: CERVICAL_MESSAGES.ageRange });
  }
};

/** `GET cervaical/`: `{count, next, previous, results}`; `format=csv` streams cervaical.csv with every matching row. */
export const ZCervicalListQuery = ZListQuery.extend(cervicalFilterShape)
  .extend({
    format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
    report_log: ZBoolParam.optional(),
  })
  .superRefine(ageOrder);
export type TCervicalListQuery = z.infer<typeof ZCervicalListQuery>;
export type TCervicalListQueryInput = z.input<typeof ZCervicalListQuery>;

const pk = () => idField();

/** `POST cervaical/ids/` (list by ids, part 3 §7): the list's query string applies. */
export const ZCervicalIdsBody = z.object(
  {
    ids_list: z
      .array(pk(), { error: 'Expected a list of items.' })
      .min(1, 'Send between 1 and 10000 exam ids.')
      .max(10_000, 'Send between 1 and 10000 exam ids.'),
  },
  { error: 'Expected an object.' },
);

// ---- Rows and detail ----------------------------------------------------------------------------------------------

const ZPerson = z.object({ id: z.number(), first_name: z.string(), last_name: z.string() });
/** A reviewer status as the caller may see it: null when blinded (the other reviewer's, before their own is done). */
const ZVisibleStatus = z.enum(REVIEWER_STATUSES).nullable();

export const ZCervicalRow = z.object({
  id: z.number(),
  patient: z
    .object({
      id: z.number(),
      first_name: z.string(),
      last_name: z.string(),
      age: z.number().nullable(),
      date_of_birth: z.string().nullable(),
      mobile_country_code: z.string().nullable(),
      mobile: z.string().nullable(),
      email: z.string().nullable(),
      physician_name: z.string().nullable(),
      physician_email: z.string().nullable(),
      created: z.string().nullable(),
      gender: z.string().nullable(),
    })
    .nullable(),
  organization_data: z.object({ id: z.number(), name: z.string() }).nullable(),
  technician_data: ZPerson.nullable(),
  technician_name: z.string().nullable(),
  date_time: z.string(),
  created: z.string(),
  breast_type: z.number().nullable(),
  left_breast_finding: z.array(z.string()),
  right_breast_finding: z.array(z.string()),
  is_positive: z.boolean(),
  notes: z.object({ message: z.string().nullable().optional() }),
  is_survivor: z.boolean(),
  has_family_history: z.boolean(),
  has_symptoms: z.boolean(),
  device_serial_number: z.string().nullable(),
  device_id: z.number().nullable(),
  sensor_serial_number: z.string().nullable(),
  software_version: z.string().nullable(),
  reviewer_one: ZPerson.nullable(),
  reviewer_one_status: ZVisibleStatus,
  reviewer_two: ZPerson.nullable(),
  reviewer_two_status: ZVisibleStatus,
  /** True when a status above is hidden from this caller (blinding). */
  blinded: z.boolean(),
  /** Both reviewers finished and disagree (false while blinded). */
  disagreement: z.boolean(),
  adjudication: z
    .object({
      final_status: z.enum(REVIEW_STATUSES),
      note: z.string().nullable(),
      user_data: ZPerson.nullable(),
      at: z.string(),
    })
    .nullable(),
  file_path: z.object({
    reports: z.array(z.object({ path: z.string() })),
    consent_form: z.array(z.object({ path: z.string() })),
  }),
});
export type TCervicalRow = z.infer<typeof ZCervicalRow>;
export const ZCervicalList = paginated(ZCervicalRow);
export type TCervicalList = z.infer<typeof ZCervicalList>;

/** `GET cervaical/{id}/`: the row plus the detail modal's device and mobile facts and the map marker. */
export const ZCervicalDetail = ZCervicalRow.extend({
  tablet_serial_number: z.string().nullable(),
  hardware_version: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  metadata: z.object({
    device: z.object({
      device_model: z.string().nullable(),
      manufacturer: z.string().nullable(),
      os_version: z.string().nullable(),
    }),
  }),
});
export type TCervicalDetail = z.infer<typeof ZCervicalDetail>;
export const ZCervicalDetailQuery = z.object({ using_read_db: scanFilterShape.using_read_db });

// ---- Review documents and reviews (part 3 §3 Cervical review document, §5, §7) ------------------------------------

export const ZQualityAnswer = z.object({ id: z.number(), name: z.string(), answer: z.boolean(), quality: z.number() });
export const ZFindingAnswer = z.object({
  id: z.number(),
  name: z.string(),
  answer: z.boolean(),
  clinical_finding: z.number(),
});

export const ZDocumentUser = z.object({
  id: z.number(),
  user: z.number(),
  user_data: ZPerson.nullable(),
  /** 1 or 2: which reviewer of the exam wrote it (architecture §7). */
  reviewer: z.number().nullable(),
  review_status: z.enum(REVIEW_STATUSES),
  review_status_at: z.string(),
  qualities: z.array(ZQualityAnswer),
  clinical_finding: z.array(ZFindingAnswer),
});
export type TDocumentUser = z.infer<typeof ZDocumentUser>;

export const ZCervicalDocument = z.object({
  id: z.number(),
  scan: z.number(),
  path: z.string(),
  document_type: z.enum(DOCUMENT_TYPES),
  symptom_tag: z.string().nullable(),
  /** The reviews this caller may see (blinding hides the other reviewer's). */
  documentusers: z.array(ZDocumentUser),
  /** Reviews of this document that exist, seen or not. */
  review_count: z.number(),
});
export type TCervicalDocument = z.infer<typeof ZCervicalDocument>;
export const ZCervicalDocumentList = paginated(ZCervicalDocument);

/** `GET cervaical/document/?scan=&limit=100&ordering=document_type`. */
export const ZCervicalDocumentQuery = ZListQuery.extend({
  scan: idParam('scan'),
});

export const ZReviewOption = z.object({ id: z.number(), name: z.string(), is_required: z.boolean() });
export const ZReviewOptions = z.object({
  qualities: z.array(ZReviewOption),
  clinical_findings: z.array(ZReviewOption),
});
export type TReviewOptions = z.infer<typeof ZReviewOptions>;

const answerList = <T extends z.ZodTypeAny>(item: T) =>
  z
    .array(item, { error: 'Expected a list of items.' })
    .max(50, 'Ensure this field has no more than 50 elements.')
    .default([]);

/**
 * `POST cervaical/document-user/` (add, CERVAICAL_REVIEWER) and `PATCH cervaical/document-user/{id}/` (edit, ADMIN).
 * Only checked items are sent (answer true); `user` is the caller on a POST and ignored on a PATCH.
 */
export const ZReviewInput = z.object(
  {
    id: pk().nullable().optional(),
    document: pk(),
    user: pk().nullable().optional(),
    review_status: z.enum(REVIEW_STATUSES, { error: CERVICAL_MESSAGES.reviewStatusRequired }),
    qualities: answerList(
      z.object(
        { quality: pk(), answer: z.literal(true, { error: 'Only checked items are sent.' }) },
        { error: 'Expected an object.' },
      ),
    ),
    clinical_finding: answerList(
      z.object(
        { clinical_finding: pk(), answer: z.literal(true, { error: 'Only checked items are sent.' }) },
        { error: 'Expected an object.' },
      ),
    ),
  },
  { error: 'Expected an object.' },
);
export type TReviewInput = z.infer<typeof ZReviewInput>;
export type TReviewInputRaw = z.input<typeof ZReviewInput>;
export const ZReviewSaved = ZDocumentUser.extend({ detail: z.string() });

// ---- Adjudication and agreement -------------------------------------------------------------------------------------

export const ZAdjudicationInput = z.object(
  {
    final_status: z.enum(REVIEW_STATUSES, { error: CERVICAL_MESSAGES.reviewStatusRequired }),
    /** The console writes it in a textarea: line breaks are allowed. */
    note: textField({ multiline: true })
      .trim()
      .max(500, 'Ensure this field has no more than 500 characters.')
      .nullable()
      .optional(),
  },
  { error: 'Expected an object.' },
);
export type TAdjudicationInput = z.infer<typeof ZAdjudicationInput>;
export const ZAdjudicationSaved = ZCervicalRow.extend({ detail: z.string() });

/**
 * `GET cervaical/reviewer-agreement/?organization=`: per reviewer, among the exams in scope both reviewers finished,
 * how many they agreed on with the other reviewer; rate = agreed / compared (null with none compared).
 */
export const ZReviewerAgreement = z.object({
  results: z.array(
    z.object({
      user: ZPerson,
      reviewed: z.number(),
      compared: z.number(),
      agreed: z.number(),
      rate: z.number().nullable(),
    }),
  ),
});
export type TReviewerAgreement = z.infer<typeof ZReviewerAgreement>;
export const ZReviewerAgreementQuery = z.object({
  organization: scanFilterShape.organization,
  using_read_db: scanFilterShape.using_read_db,
});
/** 0.8333 → '83.3%'. */
export const formatRate = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);

// ---- CSV (part 3 §9) ----------------------------------------------------------------------------------------------

/** The breast CSV's columns (part 2 §9, which the cervical row repeats) and the two reviewer statuses. */
export const CERVICAL_CSV_COLUMNS = [
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
  'Reviewer 1',
  'Reviewer 2',
] as const;
/** The cervical CSV's columns of times, whose headers name the zone (csvHeader). */
export const CERVICAL_CSV_TIME_COLUMNS: readonly (typeof CERVICAL_CSV_COLUMNS)[number][] = ['Date Time'];
