// Follow-up of screen-positive patients to a diagnostic outcome (issue 26): what opens a case, its states and the
// moves between them, the closing outcome, the timeline's entries, the due intervals an organization sets, the
// reminder SMS, the worklist's query and rows, and the programme's completion figures. The API and the console use
// these same rules; nothing here knows a database.
import { z } from 'zod';
import { ZBoolParam, ZIsoDate, ZListQuery, ZPeriodQuery, idField, idParam, isIsoDate, paginated } from './list.ts';
import { ZUserType, type TUserType } from './roles.ts';
import { MESSAGES, textField } from './validation.ts';

// ---- Who ---------------------------------------------------------------------------------------------------------

/**
 * Console roles that see the worklist and act on cases, each within its organization scope: the roles that manage
 * organizations' patients. CERVAICAL_REVIEWER (reads images, not patients' contact details) and TECHNICIAN are refused.
 */
export const FOLLOW_UP_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'];
export const canFollowUp = (role: TUserType | null | undefined): boolean => role != null && FOLLOW_UP_ROLES.includes(role);
/** An organization's due intervals and reminder texts: the same roles, for organizations in their scope. */
export const canEditFollowUpSettings = canFollowUp;
/** Re-running the backfill of existing positives (a job, safe to re-run): ADMIN. */
export const canRunFollowUpBackfill = (role: TUserType | null | undefined): boolean => role === 'ADMIN';

// ---- What opens a case ---------------------------------------------------------------------------------------------

/** The screening of a positive: a breast scan (IBE), a cervical exam (Cervaical), an oral exam (ORCA). */
export const FOLLOW_UP_MODALITIES = ['BREAST', 'CERVICAL', 'ORAL'] as const;
export type TFollowUpModality = (typeof FOLLOW_UP_MODALITIES)[number];
export const FOLLOW_UP_MODALITY_LABELS: Record<TFollowUpModality, string> = {
  BREAST: 'Breast',
  CERVICAL: 'Cervical',
  ORAL: 'Oral',
};

/** The kind of record a positive comes from; with its id it is the case's source, linked at most once. */
export const FOLLOW_UP_SOURCE_KINDS = ['SCAN', 'CERVICAL', 'ORCA'] as const;
export type TFollowUpSourceKind = (typeof FOLLOW_UP_SOURCE_KINDS)[number];
export const SOURCE_MODALITY: Record<TFollowUpSourceKind, TFollowUpModality> = {
  SCAN: 'BREAST',
  CERVICAL: 'CERVICAL',
  ORCA: 'ORAL',
};

/** A breast scan opens a case when it is a SCAN (not training or practice) with a finding on either side. */
export const isBreastScreenPositive = (scan: {
  scan_type: string;
  left_breast_finding: readonly unknown[];
  right_breast_finding: readonly unknown[];
}): boolean => scan.scan_type === 'SCAN' && (scan.left_breast_finding.length > 0 || scan.right_breast_finding.length > 0);

/** An ORCA exam opens a case when one of its findings has a symptom (the same rule as `isOrcaPositive`). */
export const isOralScreenPositive = (findings: readonly { symptoms: readonly unknown[] }[]): boolean =>
  findings.some((f) => f.symptoms.length > 0);

/**
 * A cervical exam's final read: the status its two reviewers agree on once both finished, or an ADMIN's final read
 * of a disagreement; null while there is none.
 */
export function cervicalFinalStatus(exam: {
  reviewer_one_status: string;
  reviewer_two_status: string;
  final_status: string | null;
}): string | null {
  if (exam.final_status) return exam.final_status;
  const one = exam.reviewer_one_status;
  const two = exam.reviewer_two_status;
  return one !== 'NOT_REVIEWED' && one === two ? one : null;
}

/**
 * A cervical exam opens a case when its final read is positive: there is a final read, and a reviewer whose status
 * is that read answered yes to at least one clinical finding (acetowhite lesion, mosaicism…) on the exam's documents.
 * `reviews`: each reviewer's status and whether any of their answers was yes.
 */
export function isCervicalScreenPositive(
  exam: { reviewer_one_status: string; reviewer_two_status: string; final_status: string | null },
  reviews: readonly { reviewer_status: string; any_finding: boolean }[],
): boolean {
  const final = cervicalFinalStatus(exam);
  return final !== null && reviews.some((r) => r.reviewer_status === final && r.any_finding);
}

// ---- States --------------------------------------------------------------------------------------------------------

export const FOLLOW_UP_STATUSES = [
  'OPEN',
  'CONTACTED',
  'REFERRED',
  'SEEN',
  'CLOSED',
  'LOST_TO_FOLLOW_UP',
  'DECLINED',
] as const;
export type TFollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];
export const FOLLOW_UP_STATUS_LABELS: Record<TFollowUpStatus, string> = {
  OPEN: 'Open',
  CONTACTED: 'Contacted',
  REFERRED: 'Referred',
  SEEN: 'Seen',
  CLOSED: 'Closed',
  LOST_TO_FOLLOW_UP: 'Lost to follow-up',
  DECLINED: 'Declined',
};

/** States of a case still being followed: a patient has at most one case in these (a further positive joins it). */
export const ACTIVE_FOLLOW_UP_STATUSES = ['OPEN', 'CONTACTED', 'REFERRED', 'SEEN'] as const satisfies readonly TFollowUpStatus[];
export type TActiveFollowUpStatus = (typeof ACTIVE_FOLLOW_UP_STATUSES)[number];
/** Closing states: the case has left the worklist's active part; a further positive opens a new case. */
export const CLOSING_FOLLOW_UP_STATUSES = ['CLOSED', 'LOST_TO_FOLLOW_UP', 'DECLINED'] as const satisfies readonly TFollowUpStatus[];
export const isActiveFollowUpStatus = (s: TFollowUpStatus): s is TActiveFollowUpStatus =>
  (ACTIVE_FOLLOW_UP_STATUSES as readonly string[]).includes(s);

/**
 * The moves a case may make, the one table the API enforces and the console offers from. Forward only: a step may
 * be skipped where real follow-up skips it (a patient referred at the first contact goes OPEN → REFERRED; one who
 * went to the hospital on their own is SEEN without a referral), never gone back. A patient lost to follow-up whose
 * diagnosis is learned later is CLOSED with it. CLOSED and DECLINED are final: a later positive opens a new case,
 * and a wrong entry is corrected by a new one (CORRECTION), never edited.
 */
export const FOLLOW_UP_MOVES: Record<TFollowUpStatus, readonly TFollowUpStatus[]> = {
  OPEN: ['CONTACTED', 'REFERRED', 'LOST_TO_FOLLOW_UP', 'DECLINED'],
  CONTACTED: ['REFERRED', 'SEEN', 'LOST_TO_FOLLOW_UP', 'DECLINED'],
  REFERRED: ['SEEN', 'LOST_TO_FOLLOW_UP', 'DECLINED'],
  SEEN: ['CLOSED', 'LOST_TO_FOLLOW_UP'],
  CLOSED: [],
  LOST_TO_FOLLOW_UP: ['CLOSED'],
  DECLINED: [],
};
export const canMoveFollowUp = (from: TFollowUpStatus, to: TFollowUpStatus): boolean => FOLLOW_UP_MOVES[from].includes(to);

// ---- Outcome -------------------------------------------------------------------------------------------------------

export const FOLLOW_UP_OUTCOMES = ['NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER', 'UNKNOWN'] as const;
export type TFollowUpOutcome = (typeof FOLLOW_UP_OUTCOMES)[number];
export const FOLLOW_UP_OUTCOME_LABELS: Record<TFollowUpOutcome, string> = {
  NO_ABNORMALITY: 'No abnormality',
  BENIGN: 'Benign',
  MALIGNANT: 'Malignant',
  OTHER: 'Other',
  UNKNOWN: 'Unknown',
};
/**
 * Outcomes that are a diagnosis: a case CLOSED with one of these completed diagnostic evaluation (the completion
 * indicator). UNKNOWN closes a case without one.
 */
export const DIAGNOSTIC_OUTCOMES = ['NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER'] as const satisfies readonly TFollowUpOutcome[];
export const isDiagnosticOutcome = (o: TFollowUpOutcome | null | undefined): boolean =>
  o != null && (DIAGNOSTIC_OUTCOMES as readonly string[]).includes(o);

/** Where a malignancy was found (asked for MALIGNANT only). */
export const FOLLOW_UP_SITES = ['BREAST', 'CERVIX', 'ORAL_CAVITY', 'OTHER'] as const;
export type TFollowUpSite = (typeof FOLLOW_UP_SITES)[number];
export const FOLLOW_UP_SITE_LABELS: Record<TFollowUpSite, string> = {
  BREAST: 'Breast',
  CERVIX: 'Cervix',
  ORAL_CAVITY: 'Oral cavity',
  OTHER: 'Other',
};

// ---- Timeline ------------------------------------------------------------------------------------------------------

/**
 * Entries of a case's timeline, each with who (null: the system) and when. Staff add CONTACT_ATTEMPT, REFERRAL,
 * NOTE, STATUS_CHANGE (a move, with the outcome when it closes) and CORRECTION (of an earlier entry, which stays);
 * ASSIGNMENT is written when the assigned user changes; the system writes OPENED (the first positive), JOINED (a
 * further positive while the case is active), TRANSFERRED (the patient moved organization) and SMS_REMINDER.
 * Nothing on the timeline is edited or deleted.
 */
export const FOLLOW_UP_ENTRY_KINDS = [
  'OPENED',
  'JOINED',
  'CONTACT_ATTEMPT',
  'REFERRAL',
  'NOTE',
  'STATUS_CHANGE',
  'ASSIGNMENT',
  'CORRECTION',
  'TRANSFERRED',
  'SMS_REMINDER',
] as const;
export type TFollowUpEntryKind = (typeof FOLLOW_UP_ENTRY_KINDS)[number];
export const FOLLOW_UP_ENTRY_LABELS: Record<TFollowUpEntryKind, string> = {
  OPENED: 'Case opened',
  JOINED: 'Positive joined',
  CONTACT_ATTEMPT: 'Contact attempt',
  REFERRAL: 'Referral',
  NOTE: 'Note',
  STATUS_CHANGE: 'Status changed',
  ASSIGNMENT: 'Assigned',
  CORRECTION: 'Correction',
  TRANSFERRED: 'Transferred',
  SMS_REMINDER: 'SMS reminder',
};
// What each entry's `data` holds, whoever writes it (the API, the opening, the reminder job, the demo); the console
// shows these keys:
// - OPENED, JOINED: {source_kind, source_id, modality}
// - CONTACT_ATTEMPT: {method, result}; REFERRAL: {facility, referral_date, appointment_date}
// - STATUS_CHANGE: {status} and, when it closes, {outcome, site, diagnosis_date, facility}; a move implied by an
//   action: {implied_by: <the action's kind>}
// - ASSIGNMENT (users) and TRANSFERRED (organizations): {from, from_name, to, to_name}
// - SMS_REMINDER: {status, language, to (the mobile, masked)}
// - CORRECTION: the restated outcome fields, if any; the corrected entry is `corrects`.

/** The entries staff write through `POST follow-up/{id}/actions/`. */
export const FOLLOW_UP_ACTION_KINDS = ['CONTACT_ATTEMPT', 'REFERRAL', 'NOTE', 'STATUS_CHANGE', 'CORRECTION'] as const;
export type TFollowUpActionKind = (typeof FOLLOW_UP_ACTION_KINDS)[number];

export const CONTACT_METHODS = ['CALL', 'SMS', 'VISIT'] as const;
export type TContactMethod = (typeof CONTACT_METHODS)[number];
export const CONTACT_METHOD_LABELS: Record<TContactMethod, string> = { CALL: 'Call', SMS: 'SMS', VISIT: 'Visit' };
export const CONTACT_RESULTS = ['REACHED', 'NO_ANSWER', 'WRONG_NUMBER', 'LEFT_MESSAGE', 'NOT_HOME'] as const;
export type TContactResult = (typeof CONTACT_RESULTS)[number];
export const CONTACT_RESULT_LABELS: Record<TContactResult, string> = {
  REACHED: 'Reached',
  NO_ANSWER: 'No answer',
  WRONG_NUMBER: 'Wrong number',
  LEFT_MESSAGE: 'Left a message',
  NOT_HOME: 'Not at home',
};

/**
 * Moves an action makes by itself, so staff record what happened once: a contact attempt that REACHED the patient
 * moves an OPEN case to CONTACTED; a referral moves an OPEN or CONTACTED case to REFERRED. Each move is also a
 * STATUS_CHANGE entry and a webhook event, like a move made by hand.
 */
export function impliedMove(
  status: TFollowUpStatus,
  action: { kind: TFollowUpActionKind; result?: TContactResult | null },
): TFollowUpStatus | null {
  if (action.kind === 'CONTACT_ATTEMPT' && action.result === 'REACHED' && status === 'OPEN') return 'CONTACTED';
  if (action.kind === 'REFERRAL' && (status === 'OPEN' || status === 'CONTACTED')) return 'REFERRED';
  return null;
}

// ---- Limits and messages -------------------------------------------------------------------------------------------

export const FOLLOW_UP_NOTE_MAX = 2000;
export const FOLLOW_UP_FACILITY_MAX = 200;
export const FOLLOW_UP_SMS_TEXT_MAX = 320;
export const FOLLOW_UP_DUE_DAYS_MIN = 1;
export const FOLLOW_UP_DUE_DAYS_MAX = 365;
/** The daily reminder job's hour, in each organization's own time zone (digest e-mail and patient SMS). */
export const FOLLOW_UP_REMINDER_HOUR = 8;
/** Placeholders an organization's SMS text may use; nothing else of the patient (never the finding) is sent. */
export const FOLLOW_UP_SMS_PLACEHOLDERS = ['{first_name}', '{organization}', '{organization_phone}'] as const;
export const FOLLOW_UP_CSV_FILENAME = 'follow-up.csv';
export const FOLLOW_UP_FIGURES_CSV_FILENAME = 'follow-up-organizations.csv';

const statusWord = (s: TFollowUpStatus) => FOLLOW_UP_STATUS_LABELS[s].toLowerCase();

export const FOLLOW_UP_MESSAGES = {
  title: 'Follow-up',
  searchPlaceholder: 'Search by name, mobile no',
  emptyNone: 'No follow-up cases yet!',
  emptyFiltered: 'No follow-up cases found!',
  role: 'You do not have permission to follow up patients.',
  backfillRole: 'Only Super Admin users may re-run the follow-up backfill.',
  backfillQueued: 'Follow-up backfill queued Successfully',
  actionSaved: 'Follow-up updated Successfully',
  assigned: 'Case assigned Successfully',
  settingsSaved: 'Follow-up settings updated Successfully',
  statusMove: (from: TFollowUpStatus, to: TFollowUpStatus) =>
    from === to
      ? `This case is already ${statusWord(from)}.`
      : `A case that is ${statusWord(from)} cannot be moved to ${statusWord(to)}.`,
  closedCase: 'This case is closed: only a note or a correction can be added.',
  outcomeRequired: 'Choose the outcome to close the case.',
  outcomeOnlyOnClose: 'An outcome is recorded only when the case is closed.',
  siteRequired: 'Choose where the malignancy was found.',
  siteOnlyMalignant: 'A site is recorded only for a malignant outcome.',
  diagnosisDateRequired: 'Enter the date of the diagnosis.',
  diagnosisDateFuture: 'The date of the diagnosis cannot be in the future.',
  diagnosisDateBeforeOpened: 'The date of the diagnosis cannot be before the positive screen.',
  facilityRequired: 'Enter the facility.',
  referralDateRequired: 'Enter the date of the referral.',
  appointmentBeforeReferral: 'The appointment cannot be before the referral.',
  noteRequired: 'Enter a note.',
  correctsRequired: 'Choose the entry this corrects.',
  correctsUnknown: 'This entry is not on the case’s timeline.',
  assigneeInvalid: 'This user cannot be assigned this case.',
  dueDays: `Enter a whole number of days from ${FOLLOW_UP_DUE_DAYS_MIN} to ${FOLLOW_UP_DUE_DAYS_MAX}.`,
  smsTextMax: `Ensure this field has no more than ${FOLLOW_UP_SMS_TEXT_MAX} characters.`,
  smsTextPlaceholder: `Only these placeholders may be used: ${FOLLOW_UP_SMS_PLACEHOLDERS.join(', ')}.`,
  smsLanguageUnknown: 'Unknown language.',
  smsTextRequired: 'Enter the reminder text in at least one language to switch SMS reminders on.',
} as const;

// ---- Due dates -------------------------------------------------------------------------------------------------------

/**
 * Days allowed in each active state before the next step is overdue, an organization's settings. Defaults: contact
 * the patient within 7 days of the positive, refer within 14 days of the contact, see within 30 days of the referral,
 * record the outcome within 30 days of the visit.
 */
export const FOLLOW_UP_DUE_DEFAULTS: Record<TActiveFollowUpStatus, number> = {
  OPEN: 7,
  CONTACTED: 14,
  REFERRED: 30,
  SEEN: 30,
};
/** The settings field of each active state's interval. */
export const FOLLOW_UP_DUE_FIELDS = {
  OPEN: 'contact_days',
  CONTACTED: 'referral_days',
  REFERRED: 'seen_days',
  SEEN: 'outcome_days',
} as const satisfies Record<TActiveFollowUpStatus, string>;
export const FOLLOW_UP_DUE_FIELD_LABELS: Record<(typeof FOLLOW_UP_DUE_FIELDS)[TActiveFollowUpStatus], string> = {
  contact_days: 'Contact within (days)',
  referral_days: 'Refer within (days)',
  seen_days: 'Seen within (days)',
  outcome_days: 'Outcome within (days)',
};

/** Calendar arithmetic on YYYY-MM-DD, in UTC so no daylight-saving shift moves the date. */
export function addIsoDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * A case's next due date: the local date (the organization's time zone) it entered its state, plus that state's
 * interval; null in a closing state. The case is overdue from the start of the following local day, so "due
 * 2026-12-04" in Manila is overdue from 2026-12-05 00:00 Manila time, whoever looks. The API turns that into an
 * instant (`due_at`) with the organization's zone.
 */
export function followUpDueDate(
  status: TFollowUpStatus,
  enteredLocalDate: string,
  settings: Pick<TFollowUpSettings, 'contact_days' | 'referral_days' | 'seen_days' | 'outcome_days'>,
): string | null {
  if (!isActiveFollowUpStatus(status)) return null;
  return addIsoDays(enteredLocalDate, settings[FOLLOW_UP_DUE_FIELDS[status]]);
}
/** The local date from which a case due on `dueDate` is overdue. */
export const overdueFromDate = (dueDate: string): string => addIsoDays(dueDate, 1);

/** Whole days from the positive screen's local date to the diagnosis date (the median's unit). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

// ---- Settings ------------------------------------------------------------------------------------------------------

const dueDaysField = z
  .number({ error: FOLLOW_UP_MESSAGES.dueDays })
  .int(FOLLOW_UP_MESSAGES.dueDays)
  .min(FOLLOW_UP_DUE_DAYS_MIN, FOLLOW_UP_MESSAGES.dueDays)
  .max(FOLLOW_UP_DUE_DAYS_MAX, FOLLOW_UP_MESSAGES.dueDays);

/** What is wrong with a reminder text, or null: length, and placeholders other than the allowed ones. */
export function smsTextProblem(text: string): string | null {
  if ([...text].length > FOLLOW_UP_SMS_TEXT_MAX) return FOLLOW_UP_MESSAGES.smsTextMax;
  const used = text.match(/\{[^}]*\}/g) ?? [];
  if (used.some((p) => !(FOLLOW_UP_SMS_PLACEHOLDERS as readonly string[]).includes(p))) return FOLLOW_UP_MESSAGES.smsTextPlaceholder;
  return null;
}

/** The reminder text filled for one patient: placeholders only, so no finding can be sent. */
export function fillSmsText(text: string, values: { first_name: string; organization: string; organization_phone: string }): string {
  return text
    .replaceAll('{first_name}', values.first_name)
    .replaceAll('{organization}', values.organization)
    .replaceAll('{organization_phone}', values.organization_phone);
}

/** A language's iso code as the Language menu keeps it ('en', 'hi', 'fil'), lower case. */
const ZLanguageCode = z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, FOLLOW_UP_MESSAGES.smsLanguageUnknown);

/** `organization/{id}/follow-up-settings/` read and PUT: every field (PATCH takes any of them). */
export const ZFollowUpSettingsInput = z
  .object({
    contact_days: dueDaysField,
    referral_days: dueDaysField,
    seen_days: dueDaysField,
    outcome_days: dueDaysField,
    /** The daily e-mail of overdue cases to the organization's users. */
    digest_enabled: z.boolean({ error: 'Must be a valid boolean.' }),
    /** The patient reminder SMS (only to patients who consented, in their consent language). */
    sms_enabled: z.boolean({ error: 'Must be a valid boolean.' }),
    /** The reminder text per language iso code; empty texts are dropped. */
    sms_texts: z.record(
      ZLanguageCode,
      textField({ multiline: false })
        .trim()
        .superRefine((v, ctx) => {
          const problem = smsTextProblem(v);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.sms_enabled && !Object.values(v.sms_texts).some((t) => t !== '')) {
      ctx.addIssue({ code: 'custom', path: ['sms_texts'], message: FOLLOW_UP_MESSAGES.smsTextRequired });
    }
  });
export type TFollowUpSettingsInput = z.input<typeof ZFollowUpSettingsInput>;
/** `PATCH organization/{id}/follow-up-settings/`: any of the fields, checked merged with the current settings. */
export const ZFollowUpSettingsPatch = z.object(ZFollowUpSettingsInput.shape).partial();
export const ZFollowUpSettings = z.object({
  organization: z.number(),
  contact_days: z.number(),
  referral_days: z.number(),
  seen_days: z.number(),
  outcome_days: z.number(),
  digest_enabled: z.boolean(),
  sms_enabled: z.boolean(),
  sms_texts: z.record(z.string(), z.string()),
  /** False while the organization has never saved settings (the defaults apply). */
  is_custom: z.boolean(),
});
export type TFollowUpSettings = z.infer<typeof ZFollowUpSettings>;
export const DEFAULT_FOLLOW_UP_SMS_TEXT =
  'Dear {first_name}, please contact {organization} ({organization_phone}) about your recent screening visit.';
export const defaultFollowUpSettings = (organization: number): TFollowUpSettings => ({
  organization,
  contact_days: FOLLOW_UP_DUE_DEFAULTS.OPEN,
  referral_days: FOLLOW_UP_DUE_DEFAULTS.CONTACTED,
  seen_days: FOLLOW_UP_DUE_DEFAULTS.REFERRED,
  outcome_days: FOLLOW_UP_DUE_DEFAULTS.SEEN,
  digest_enabled: true,
  sms_enabled: false,
  sms_texts: { en: DEFAULT_FOLLOW_UP_SMS_TEXT },
  is_custom: false,
});

// ---- Actions -------------------------------------------------------------------------------------------------------

const required = (message: string) => ({ error: (issue: { input?: unknown }) => (issue.input == null ? message : MESSAGES.required) });
const facilityField = textField(required(FOLLOW_UP_MESSAGES.facilityRequired))
  .trim()
  .min(1, FOLLOW_UP_MESSAGES.facilityRequired)
  .max(FOLLOW_UP_FACILITY_MAX, `Ensure this field has no more than ${FOLLOW_UP_FACILITY_MAX} characters.`);
const noteField = textField({ multiline: true })
  .trim()
  .max(FOLLOW_UP_NOTE_MAX, `Ensure this field has no more than ${FOLLOW_UP_NOTE_MAX} characters.`);
const dateField = (message: string) =>
  z.string({ error: message }).refine(isIsoDate, 'Enter a valid date in YYYY-MM-DD format.');

/**
 * `POST follow-up/{id}/actions/`: one timeline entry. Field rules that need the case (its state, the date of its
 * positive, the caller's today) are checked by the API with `followUpActionProblems`, which the console calls too.
 */
export const ZFollowUpAction = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('CONTACT_ATTEMPT'),
      method: z.enum(CONTACT_METHODS, { error: `Select a valid choice: ${CONTACT_METHODS.join(', ')}.` }),
      result: z.enum(CONTACT_RESULTS, { error: `Select a valid choice: ${CONTACT_RESULTS.join(', ')}.` }),
      note: noteField.optional(),
    }),
    z.object({
      kind: z.literal('REFERRAL'),
      facility: facilityField,
      referral_date: dateField(FOLLOW_UP_MESSAGES.referralDateRequired),
      appointment_date: ZIsoDate.nullish(),
      note: noteField.optional(),
    }),
    z.object({
      kind: z.literal('NOTE'),
      note: textField(required(FOLLOW_UP_MESSAGES.noteRequired))
        .trim()
        .min(1, FOLLOW_UP_MESSAGES.noteRequired)
        .max(FOLLOW_UP_NOTE_MAX, `Ensure this field has no more than ${FOLLOW_UP_NOTE_MAX} characters.`),
    }),
    z.object({
      kind: z.literal('STATUS_CHANGE'),
      status: z.enum(FOLLOW_UP_STATUSES, { error: `Select a valid choice: ${FOLLOW_UP_STATUSES.join(', ')}.` }),
      outcome: z.enum(FOLLOW_UP_OUTCOMES, { error: `Select a valid choice: ${FOLLOW_UP_OUTCOMES.join(', ')}.` }).nullish(),
      site: z.enum(FOLLOW_UP_SITES, { error: `Select a valid choice: ${FOLLOW_UP_SITES.join(', ')}.` }).nullish(),
      diagnosis_date: ZIsoDate.nullish(),
      facility: textField()
        .trim()
        .max(FOLLOW_UP_FACILITY_MAX, `Ensure this field has no more than ${FOLLOW_UP_FACILITY_MAX} characters.`)
        .nullish(),
      note: noteField.optional(),
    }),
    z.object({
      kind: z.literal('CORRECTION'),
      corrects: idField(FOLLOW_UP_MESSAGES.correctsRequired),
      note: textField(required(FOLLOW_UP_MESSAGES.noteRequired))
        .trim()
        .min(1, FOLLOW_UP_MESSAGES.noteRequired)
        .max(FOLLOW_UP_NOTE_MAX, `Ensure this field has no more than ${FOLLOW_UP_NOTE_MAX} characters.`),
      /**
       * On a CLOSED case, a correction may restate the outcome (all four fields, checked as a close): the case's
       * outcome becomes this one and the figures follow; the earlier entry stays.
       */
      outcome: z.enum(FOLLOW_UP_OUTCOMES, { error: `Select a valid choice: ${FOLLOW_UP_OUTCOMES.join(', ')}.` }).nullish(),
      site: z.enum(FOLLOW_UP_SITES, { error: `Select a valid choice: ${FOLLOW_UP_SITES.join(', ')}.` }).nullish(),
      diagnosis_date: ZIsoDate.nullish(),
      facility: textField()
        .trim()
        .max(FOLLOW_UP_FACILITY_MAX, `Ensure this field has no more than ${FOLLOW_UP_FACILITY_MAX} characters.`)
        .nullish(),
    }),
  ],
  { error: `Select a valid choice: ${FOLLOW_UP_ACTION_KINDS.join(', ')}.` },
);
export type TFollowUpActionInput = z.input<typeof ZFollowUpAction>;
export type TFollowUpAction = z.output<typeof ZFollowUpAction>;

/**
 * The rules of an action that need the case: field → message, empty when it may be saved. `today` is the caller's
 * local date; `openedLocalDate` the positive screen's local date in the organization's zone.
 */
export function followUpActionProblems(
  action: TFollowUpAction,
  kase: { status: TFollowUpStatus; openedLocalDate: string },
  today: string,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const closing = (fields: { outcome?: TFollowUpOutcome | null; site?: TFollowUpSite | null; diagnosis_date?: string | null }) => {
    if (!fields.outcome) problems.outcome = FOLLOW_UP_MESSAGES.outcomeRequired;
    if (fields.outcome === 'MALIGNANT' && !fields.site) problems.site = FOLLOW_UP_MESSAGES.siteRequired;
    if (fields.outcome && fields.outcome !== 'MALIGNANT' && fields.site) problems.site = FOLLOW_UP_MESSAGES.siteOnlyMalignant;
    if (fields.outcome && fields.outcome !== 'UNKNOWN' && !fields.diagnosis_date) {
      problems.diagnosis_date = FOLLOW_UP_MESSAGES.diagnosisDateRequired;
    }
    if (fields.diagnosis_date && fields.diagnosis_date > today) problems.diagnosis_date = FOLLOW_UP_MESSAGES.diagnosisDateFuture;
    else if (fields.diagnosis_date && fields.diagnosis_date < kase.openedLocalDate) {
      problems.diagnosis_date = FOLLOW_UP_MESSAGES.diagnosisDateBeforeOpened;
    }
  };
  const active = isActiveFollowUpStatus(kase.status);
  switch (action.kind) {
    case 'CONTACT_ATTEMPT':
    case 'REFERRAL':
      if (!active) problems.non_field_errors = FOLLOW_UP_MESSAGES.closedCase;
      if (action.kind === 'REFERRAL') {
        if (action.referral_date > today) problems.referral_date = 'The date of the referral cannot be in the future.';
        if (action.appointment_date && action.appointment_date < action.referral_date) {
          problems.appointment_date = FOLLOW_UP_MESSAGES.appointmentBeforeReferral;
        }
      }
      break;
    case 'NOTE':
      break;
    case 'STATUS_CHANGE':
      if (!canMoveFollowUp(kase.status, action.status)) problems.status = FOLLOW_UP_MESSAGES.statusMove(kase.status, action.status);
      else if (action.status === 'CLOSED') closing(action);
      else {
        if (action.outcome) problems.outcome = FOLLOW_UP_MESSAGES.outcomeOnlyOnClose;
        if (action.site) problems.site = FOLLOW_UP_MESSAGES.siteOnlyMalignant;
        if (action.diagnosis_date) problems.diagnosis_date = FOLLOW_UP_MESSAGES.outcomeOnlyOnClose;
      }
      break;
    case 'CORRECTION':
      if (action.outcome || action.site || action.diagnosis_date) {
        if (kase.status !== 'CLOSED') problems.outcome = FOLLOW_UP_MESSAGES.outcomeOnlyOnClose;
        else closing(action);
      }
      break;
  }
  return problems;
}

/** `PATCH follow-up/{id}/`: the user who follows the case up (a user of a follow-up role with the case in scope). */
export const ZFollowUpAssign = z.object({
  assigned_user: idField(FOLLOW_UP_MESSAGES.assigneeInvalid).nullable(),
});

/** `GET follow-up/assignees/?organization=ID`: the users a case of that organization may be assigned to. */
export const ZFollowUpAssigneesQuery = z.object({ organization: idParam('organization') });
export const ZFollowUpAssignee = z.object({ id: z.number(), name: z.string(), user_type: ZUserType });
export type TFollowUpAssignee = z.infer<typeof ZFollowUpAssignee>;

/** `POST follow-up/backfill/`: open the cases of positives stored before follow-up existed (ADMIN; a job). */
export const ZFollowUpBackfillQueued = z.object({ detail: z.string() });

// ---- The worklist ----------------------------------------------------------------------------------------------------

export const FOLLOW_UP_ORDERING_FIELDS = ['id', 'opened', 'next_due', 'last_action', 'status', 'first_name'] as const;
/** Overdue first (longest overdue at the top), then the nearest due date; closed cases (no due date) last. */
export const FOLLOW_UP_DEFAULT_ORDERING = 'next_due';

/**
 * `GET follow-up/` (and `format=csv`). The period (date_time_*, day, month) is when the case opened, read in the
 * caller's zone; `due_after`/`due_before` the window of next due dates (YYYY-MM-DD, inclusive). `status` takes one
 * status or `active` (every active state) or `closing`.
 */
export const ZFollowUpListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  status: z
    .enum([...FOLLOW_UP_STATUSES, 'active', 'closing'] as const, {
      error: `Select a valid choice: ${[...FOLLOW_UP_STATUSES, 'active', 'closing'].join(', ')}.`,
    })
    .optional(),
  overdue: ZBoolParam.optional(),
  due_after: ZIsoDate.optional(),
  due_before: ZIsoDate.optional(),
  organization: idParam('organization').optional(),
  /** A user id, or `none` for unassigned cases. */
  assigned_user: z.union([z.literal('none'), idParam('assigned_user')]).optional(),
  modality: z.enum(FOLLOW_UP_MODALITIES, { error: `Select a valid choice: ${FOLLOW_UP_MODALITIES.join(', ')}.` }).optional(),
  /** One patient's cases (the patient dialog). */
  patient: idParam('patient').optional(),
  /** The case a scan or exam opened or joined (the scan, cervical and ORCA detail). */
  scan: idParam('scan').optional(),
  cervical_exam: idParam('cervical_exam').optional(),
  orca_exam: idParam('orca_exam').optional(),
  format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
});
export type TFollowUpListQuery = z.infer<typeof ZFollowUpListQuery>;

export const ZFollowUpRow = z.object({
  id: z.number(),
  patient: z.object({ id: z.number(), first_name: z.string(), last_name: z.string(), mobile: z.string().nullable() }),
  organization: z.object({ id: z.number(), name: z.string(), timezone: z.string() }).nullable(),
  modalities: z.array(z.enum(FOLLOW_UP_MODALITIES)),
  status: z.enum(FOLLOW_UP_STATUSES),
  /** When the first positive was screened (ISO instant). */
  opened: z.string(),
  last_action: z.object({ kind: z.enum(FOLLOW_UP_ENTRY_KINDS), at: z.string() }).nullable(),
  /** YYYY-MM-DD in the organization's zone; null once closing. */
  next_due: z.string().nullable(),
  overdue: z.boolean(),
  /** Whole days past the due date (0 when not overdue). */
  days_overdue: z.number(),
  assigned_user: z.object({ id: z.number(), name: z.string() }).nullable(),
  outcome: z.enum(FOLLOW_UP_OUTCOMES).nullable(),
});
export type TFollowUpRow = z.infer<typeof ZFollowUpRow>;
export const ZFollowUpPage = paginated(ZFollowUpRow);

export const ZFollowUpEntry = z.object({
  id: z.number(),
  kind: z.enum(FOLLOW_UP_ENTRY_KINDS),
  at: z.string(),
  /** Who wrote it; null for the system (opening, reminders). */
  by: z.object({ id: z.number(), name: z.string() }).nullable(),
  from_status: z.enum(FOLLOW_UP_STATUSES).nullable(),
  to_status: z.enum(FOLLOW_UP_STATUSES).nullable(),
  /** The entry's fields as written (method, result, facility, dates, outcome, source…). */
  data: z.record(z.string(), z.unknown()),
  note: z.string().nullable(),
  /** The earlier entry this one corrects. */
  corrects: z.number().nullable(),
  /** Later entries that correct this one. */
  corrected_by: z.array(z.number()),
});
export type TFollowUpEntry = z.infer<typeof ZFollowUpEntry>;

export const ZFollowUpSource = z.object({
  kind: z.enum(FOLLOW_UP_SOURCE_KINDS),
  id: z.number(),
  modality: z.enum(FOLLOW_UP_MODALITIES),
  /** When it was screened. */
  date_time: z.string(),
});

export const ZFollowUpCase = ZFollowUpRow.extend({
  status_changed: z.string(),
  site: z.enum(FOLLOW_UP_SITES).nullable(),
  diagnosis_date: z.string().nullable(),
  diagnosis_facility: z.string().nullable(),
  closed: z.string().nullable(),
  sources: z.array(ZFollowUpSource),
  timeline: z.array(ZFollowUpEntry),
  /** The statuses this case may move to now (FOLLOW_UP_MOVES), for the console's buttons. */
  next_statuses: z.array(z.enum(FOLLOW_UP_STATUSES)),
});
export type TFollowUpCase = z.infer<typeof ZFollowUpCase>;

export const FOLLOW_UP_CSV_HEADER = [
  'Case Id',
  'Patient',
  'Mobile No',
  'Organization',
  'Modality',
  'Opened',
  'Last Action',
  'Last Action On',
  'Next Due',
  'Overdue',
  'Status',
  'Assigned To',
  'Outcome',
] as const;
/** Columns of times, written in the reader's zone and named with it ('Opened (Asia/Kolkata)'). */
export const FOLLOW_UP_CSV_TIME_COLUMNS = ['Opened', 'Last Action On'] as const;

// ---- Programme figures -------------------------------------------------------------------------------------------

/**
 * `GET follow-up/figures/` (the dashboard's card, its period and organization filter, in scope) and
 * `GET follow-up/figures/organizations/` (the same per organization, a leaderboard-style table, `format=csv`).
 * Cases count in the period they opened (their first positive screen, in the caller's zone); overdue is now.
 * - screen_positives: cases opened (one per patient episode);
 * - completed: of those, CLOSED with a diagnostic outcome; completion_pct = completed / screen_positives (target ≥ 90);
 * - lost: of those, LOST_TO_FOLLOW_UP; lost_pct likewise;
 * - overdue: active cases in scope whose due date has passed, whatever their period;
 * - median_days_to_diagnosis: median of (diagnosis date − positive's local date) over completed cases, null if none.
 */
export const FOLLOW_UP_COMPLETION_TARGET_PCT = 90;
export const ZFollowUpFiguresQuery = ZPeriodQuery.extend({
  organization: idParam('organization').optional(),
  modality: z.enum(FOLLOW_UP_MODALITIES, { error: `Select a valid choice: ${FOLLOW_UP_MODALITIES.join(', ')}.` }).optional(),
  using_read_db: ZBoolParam.optional(),
});
export type TFollowUpFiguresQuery = z.infer<typeof ZFollowUpFiguresQuery>;
export const ZFollowUpFigures = z.object({
  screen_positives: z.number(),
  completed: z.number(),
  completion_pct: z.number().nullable(),
  lost: z.number(),
  lost_pct: z.number().nullable(),
  declined: z.number(),
  overdue: z.number(),
  median_days_to_diagnosis: z.number().nullable(),
});
export type TFollowUpFigures = z.infer<typeof ZFollowUpFigures>;
export const FOLLOW_UP_FIGURES_ORDERING_FIELDS = [
  'name',
  'screen_positives',
  'completed',
  'completion_pct',
  'lost_pct',
  'overdue',
  'median_days_to_diagnosis',
] as const;
export const ZFollowUpFiguresOrgQuery = ZFollowUpFiguresQuery.extend(ZListQuery.pick({ page: true, limit: true, ordering: true, search: true }).shape).extend({
  format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
});
export const ZFollowUpFiguresOrgRow = ZFollowUpFigures.extend({ id: z.number(), name: z.string() });
export type TFollowUpFiguresOrgRow = z.infer<typeof ZFollowUpFiguresOrgRow>;
export const ZFollowUpFiguresOrgPage = paginated(ZFollowUpFiguresOrgRow);
export const FOLLOW_UP_FIGURES_CSV_HEADER = [
  'Organization',
  'Screen Positives',
  'Completed',
  'Completion %',
  'Lost To Follow-up',
  'Lost %',
  'Declined',
  'Overdue',
  'Median Days To Diagnosis',
] as const;

/** Percent with one decimal, null when there is nothing to divide by. */
export const percentOf = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 10;

/** The exact median of whole-day counts given as (days → cases), as the figures pre-aggregate them. */
export function medianOfCounts(counts: ReadonlyMap<number, number> | readonly (readonly [number, number])[]): number | null {
  const entries = [...(counts instanceof Map ? counts.entries() : counts)].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const at = (k: number): number => {
    let seen = 0;
    for (const [days, n] of entries) {
      seen += n;
      if (k < seen) return days;
    }
    return entries[entries.length - 1]![0];
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

// ---- Events --------------------------------------------------------------------------------------------------------

/** The webhook event of a case's move, POSTed like `scan.created` through the organization's webhook. */
export const FOLLOW_UP_WEBHOOK_EVENT = 'follow_up_case.status_changed';
export const WEBHOOK_EVENTS = ['scan.created', FOLLOW_UP_WEBHOOK_EVENT] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Audit actions: every read of a case's timeline, and every change. */
export const FOLLOW_UP_AUDIT = {
  read: 'follow_up.case.read',
  action: 'follow_up.case.action',
  assign: 'follow_up.case.assign',
  settings: 'follow_up.settings.update',
  backfill: 'follow_up.backfill',
} as const;
