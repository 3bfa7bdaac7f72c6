// The words people read for the codes the API speaks (issue 23 item 9): every enum a person sees in the console, the
// public booking page, a PDF or a message is shown through one of these tables, never as its code. The tables that
// were born next to their rules (roles, cervical review statuses, report periods) stay there and are re-exported
// here, so this module is the one index of labels; `ENUM_LABEL_TABLES` lets a test prove every code has its words.
//
// Kept verbatim where the spec gives the words: the product names IBE, ORCA and Cervaical ('Cervaical Detail' is a
// screen's title, Cervaical the product's name as IBE and ORCA are), 'Slot Data', 'search by name, iso_code'.
import {
  APP_TYPES,
  ASSESSMENT_RESULTS,
  BOOKING_STATUSES,
  CONTENT_STATUSES,
  DOCUMENT_TYPES,
  GENDERS,
  LICENCE_APPLICATIONS,
  LOGIN_SOURCES,
  OFFLINE_PAYMENT_METHODS,
  REVIEWER_STATUSES,
  REVIEW_STATUSES,
  SCAN_TYPES,
  TRAINING_STATUSES,
} from './constants.ts';
import { REVIEWER_STATUS_LABELS, REVIEW_STATUS_LABELS } from './cervical.ts';
import { REPORT_PERIOD_LABELS, REPORT_PERIOD_TYPES } from './reports.ts';
import { ROLE_LABELS, USER_TYPES } from './roles.ts';

export { REVIEWER_STATUS_LABELS, REVIEW_STATUS_LABELS, REPORT_PERIOD_LABELS, ROLE_LABELS };

type Labels<T extends readonly string[]> = Record<T[number], string>;

/** A booking's status (part 3 §3 Booking: NEW, PENDING_PAYMENT, PAID, COMPLETED, CANCELED). */
export const BOOKING_STATUS_LABELS: Labels<typeof BOOKING_STATUSES> = {
  NEW: 'New',
  PENDING_PAYMENT: 'Pending payment',
  PAID: 'Paid',
  COMPLETED: 'Completed',
  CANCELED: 'Canceled',
};

/** How an offline payment was made (the booking modal's 'Record an offline payment'). */
export const PAYMENT_METHOD_LABELS: Labels<typeof OFFLINE_PAYMENT_METHODS> = {
  CASH: 'Cash',
  CARD: 'Card',
  UPI: 'UPI',
  BANK_TRANSFER: 'Bank transfer',
  CHEQUE: 'Cheque',
  OTHER: 'Other',
};

/** A scan's type (part 2 §3 Scan scan_type). */
export const SCAN_TYPE_LABELS: Labels<typeof SCAN_TYPES> = {
  SCAN: 'Scan',
  TRAINING: 'Training',
  PRACTICE: 'Practice',
  PRE_TRAINING: 'Pre-training',
};

/** A breast scan's result: the API's `is_positive`. */
export const SCAN_RESULT_LABELS = { positive: 'Positive', negative: 'Negative' } as const;
export const scanResultLabel = (isPositive: boolean): string =>
  isPositive ? SCAN_RESULT_LABELS.positive : SCAN_RESULT_LABELS.negative;

/** Assessment results as words (part 2 §3 Scan assessment_result). */
export const ASSESSMENT_RESULT_LABELS: Labels<typeof ASSESSMENT_RESULTS> = {
  NO_ASSESSMENT: 'No assessment',
  CORRECT: 'Correct',
  INCORRECT: 'Incorrect',
  BYPASS: 'Bypass',
  USER_BYPASS: 'User bypass',
};

/** A technician's training status (part 2 §3 names only CERTIFIED; architecture §7 "Training status" the steps). */
export const TRAINING_STATUS_LABELS: Labels<typeof TRAINING_STATUSES> = {
  NOT_STARTED: 'Not started',
  PRE_TRAINING: 'Pre-training',
  TRAINING: 'Training',
  PRACTICE: 'Practice',
  CERTIFIED: 'Certified',
};

export const GENDER_LABELS: Labels<typeof GENDERS> = { FEMALE: 'Female', MALE: 'Male', OTHER: 'Other' };

/** The three apps by their product names (the spec's spelling: Cervaical is a name, not a typo). */
export const APP_LABELS: Labels<typeof APP_TYPES> = { IBE: 'IBE', ORCA: 'ORCA', CERVAICAL: 'Cervaical' };
/** A licence's application (part 3 §3 Licence). */
export const LICENCE_APPLICATION_LABELS: Labels<typeof LICENCE_APPLICATIONS> = {
  ORCA: APP_LABELS.ORCA,
  CERVAICAL: APP_LABELS.CERVAICAL,
};

export const CONTENT_STATUS_LABELS: Labels<typeof CONTENT_STATUSES> = {
  PUBLISHED: 'Published',
  DRAFT: 'Draft',
};
export const DOCUMENT_TYPE_LABELS: Labels<typeof DOCUMENT_TYPES> = { IMAGE: 'Image', VIDEO: 'Video' };
export const LOGIN_SOURCE_LABELS: Labels<typeof LOGIN_SOURCES> = {
  DASHBOARD: 'Console',
  IBE_APP: 'IBE app',
  ORCA_APP: 'ORCA app',
  CERVAICAL_APP: 'Cervaical app',
};

/**
 * Every enum a person may see with its codes and its labels: the labels test walks this list, so a code added to
 * an enum without its words fails there rather than reaching a screen.
 */
export const ENUM_LABEL_TABLES: readonly {
  name: string;
  codes: readonly string[];
  labels: Record<string, string>;
}[] = [
  { name: 'booking status', codes: BOOKING_STATUSES, labels: BOOKING_STATUS_LABELS },
  { name: 'payment method', codes: OFFLINE_PAYMENT_METHODS, labels: PAYMENT_METHOD_LABELS },
  { name: 'scan type', codes: SCAN_TYPES, labels: SCAN_TYPE_LABELS },
  { name: 'assessment result', codes: ASSESSMENT_RESULTS, labels: ASSESSMENT_RESULT_LABELS },
  { name: 'training status', codes: TRAINING_STATUSES, labels: TRAINING_STATUS_LABELS },
  { name: 'gender', codes: GENDERS, labels: GENDER_LABELS },
  { name: 'app', codes: APP_TYPES, labels: APP_LABELS },
  { name: 'licence application', codes: LICENCE_APPLICATIONS, labels: LICENCE_APPLICATION_LABELS },
  { name: 'content status', codes: CONTENT_STATUSES, labels: CONTENT_STATUS_LABELS },
  { name: 'document type', codes: DOCUMENT_TYPES, labels: DOCUMENT_TYPE_LABELS },
  { name: 'login source', codes: LOGIN_SOURCES, labels: LOGIN_SOURCE_LABELS },
  { name: 'user type', codes: USER_TYPES, labels: ROLE_LABELS },
  { name: 'reviewer status', codes: REVIEWER_STATUSES, labels: REVIEWER_STATUS_LABELS },
  { name: 'review status', codes: REVIEW_STATUSES, labels: REVIEW_STATUS_LABELS },
  { name: 'report period', codes: REPORT_PERIOD_TYPES, labels: REPORT_PERIOD_LABELS },
];

/** The label of a code, or the code itself when a newer API sends one this console does not know yet. */
export function labelOf(labels: Readonly<Record<string, string>>, code: string | null | undefined): string {
  if (code == null || code === '') return '—';
  return Object.hasOwn(labels, code) ? labels[code]! : code;
}
