// Business constants and limits of the spec (part 1 §9, part 2 §9, part 3 §9), written once.
export const PAGE_SIZES = [10, 20, 40, 60, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;
export const PAGER_LINKS = 5;

export const SEARCH_DEBOUNCE_MS = 500;
export const AUTOCOMPLETE_DEBOUNCE_MS = 100;
export const AUTOCOMPLETE_MIN_CHARS = 1;

export const ALERT_AUTO_CLOSE_MS = 3000;
export const ERROR_BANNER_MS = 5000;
export const LOGIN_ERROR_CLEAR_MS = 6000;
export const IMPERSONATION_RELOAD_MS = 1000;
export const ACCOUNT_DELETE_RELOAD_MS = 1500;
export const SESSION_EXPIRED_REDIRECT_MS = 3000;
export const FILE_ERROR_MS = 3000;

export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_TRIES = 5;
export const OTP_RESEND_SECONDS = 60;
export const OTP_MAX_PER_HOUR = 5;
export const PASSWORD_RESET_TTL_SECONDS = 3600;
export const ID_TOKEN_TTL_SECONDS = 300;
export const IMPERSONATION_TTL_SECONDS = 3600;

export const DEFAULT_TIMEZONE = 'Asia/Kolkata';
export const DEFAULT_COUNTRY_CODE = 'IN';
export const DEFAULT_LANGUAGE_ID = 1;
export const DATE_DISPLAY_FORMAT = 'DD MMM YYYY hh:mm A';
export const API_DATE_FORMAT = 'YYYY-MM-DD';

/**
 * A time in every CSV (issue 23.14): ISO 8601's date and time without an offset, in the reader's zone, which the
 * column's header names ('Date Time (Asia/Kolkata)', csvTimeHeader). Excel, LibreOffice and Google Sheets read this
 * form as a date and time in any locale, and it sorts as text; none of them reads an offset suffix ('+05:30') or
 * '05 Mar 2026 02:30 PM' outside English locales. Calendar dates (a date of birth) stay API_DATE_FORMAT.
 */
export const CSV_DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
/** The header of a CSV column of times in `zone`: the column's name and the zone. */
export const csvTimeHeader = (column: string, zone: string): string => `${column} (${zone})`;
/** A CSV's header: the columns of `timeColumns` name `zone` (csvTimeHeader). */
export const csvHeader = (columns: readonly string[], timeColumns: readonly string[], zone: string): string[] =>
  columns.map((c) => (timeColumns.includes(c) ? csvTimeHeader(c, zone) : c));

export const CONSENT_MAX_WORDS = 400;
export const CUSTOMIZED_MESSAGE_MAX = 1500;
export const FIRMWARE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
/** A JSON request body (the API's `bodyLimit`); uploads are multipart and have their own limits. */
export const JSON_BODY_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'webp'] as const;
export const CROP_ASPECT = 1;
export const CROP_QUALITY = 0.4;
export const CROP_ZOOM_STEP = 0.1;
export const UPLOAD_FOLDERS = [
  'companylogo',
  'customized',
  'user_test',
  'test',
  'firmware',
  'reports',
  'documents',
  'consent_forms',
  'assessment_files',
] as const;

export const MENU_ORGANIZATIONS = 3;
export const API_MODE_CLICKS = 3; // "more than twice"

export const CSV_PAGE_SIZE = 200;
export const LICENCE_COUNT_STEP = 100;
export const LICENCE_MIN_COUNT = 100;
export const PATIENT_MIN_AGE = 12;
export const PATIENT_MAX_AGE = 120;
export const REPORT_FIRST_YEAR = 2018;
export const RECERT_ALL_TIME_START = '2020-01-01';
export const RECERT_EXPIRY_DAYS_BEFORE = 30;
export const CERTIFICATE_VALIDITY_DAYS = 365;

export const MAP_INITIAL = { zoom: 2, lat: 10, lng: 10, height: 700, batch: 3000 } as const;

export const BREAKPOINTS = { xs: 600, sm: 959, md: 1279, lg: 1919 } as const;

export const SCAN_TYPES = ['PRACTICE', 'TRAINING', 'SCAN', 'PRE_TRAINING'] as const;
export const SCAN_ID_PREFIX = { PRACTICE: 'P-', TRAINING: 'T-', SCAN: 'S-', PRE_TRAINING: 'PT-' } as const;
export const ASSESSMENT_RESULTS = ['NO_ASSESSMENT', 'CORRECT', 'INCORRECT', 'BYPASS', 'USER_BYPASS'] as const;
export const BREAST_TYPES = { 1: 'Small', 2: 'Medium', 3: 'Large' } as const;
export const TRAINING_STATUSES = ['NOT_STARTED', 'PRE_TRAINING', 'TRAINING', 'PRACTICE', 'CERTIFIED'] as const;
export const REVIEWER_STATUSES = ['NOT_REVIEWED', 'VALID', 'IN_VALID'] as const;
export const REVIEW_STATUSES = ['VALID', 'IN_VALID'] as const;
export const DOCUMENT_TYPES = ['IMAGE', 'VIDEO'] as const;
export const ORCA_EXAMS = ['lymph_node_exam', 'intra_oral_exam', 'extra_oral_exam'] as const;
export const TOBACCO_FREQUENCIES = ['Current', 'Occasional', 'Former'] as const;
export const GENDERS = ['FEMALE', 'MALE', 'OTHER'] as const;
export const BOOKING_STATUSES = ['NEW', 'PENDING_PAYMENT', 'PAID', 'COMPLETED', 'CANCELED'] as const;
export const OFFLINE_PAYMENT_METHODS = ['CASH', 'CARD', 'UPI', 'BANK_TRANSFER', 'CHEQUE', 'OTHER'] as const;
export const CONTENT_STATUSES = ['PUBLISHED', 'DRAFT'] as const;
export const APP_TYPES = ['IBE', 'ORCA', 'CERVAICAL'] as const;
export const LICENCE_APPLICATIONS = ['ORCA', 'CERVAICAL'] as const;
export const DAYS_OF_WEEK = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const; // ids 0..6
export const LOGIN_SOURCES = ['DASHBOARD', 'IBE_APP', 'ORCA_APP', 'CERVAICAL_APP'] as const;

export const DAY_FILTERS = ['today', 'yesterday'] as const;
export const MONTH_FILTERS = ['this_month', 'last_month', 'yesterday'] as const;
