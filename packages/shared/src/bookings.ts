// Bookings (part 3 §2 Booking list, §3 Booking, §4, §7, §9; part 1 §3 organization booking settings; architecture §7):
// statuses and the moves staff may make, the inputs of the slot arithmetic, the patient's form and the console's
// calls, and every message. The API and the console (list, modal, public page) use these same rules.
import { z } from 'zod';
import { BOOKING_STATUSES, OFFLINE_PAYMENT_METHODS } from './constants.ts';
import { BOOKING_STATUS_LABELS } from './labels.ts';
import { ZListQuery, ZPeriodQuery, idParam, isIsoDate, ZBoolParam } from './list.ts';
import type { TUserType } from './roles.ts';
import { EMAIL_PATTERN, MESSAGES, parseMobile, textField } from './validation.ts';
import { mobileProblem } from './phone.ts';

export { BOOKING_STATUSES, OFFLINE_PAYMENT_METHODS };
export type TBookingStatus = (typeof BOOKING_STATUSES)[number];

// ---- Who ---------------------------------------------------------------------------------------------------------

/**
 * Console roles that see and handle bookings, each within its organization scope (architecture §6): the organization's
 * other data is handled by these roles, so its bookings are too. CERVAICAL_REVIEWER and TECHNICIAN are refused.
 */
export const BOOKING_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'];
export const canHandleBookings = (role: TUserType | null | undefined): boolean =>
  role != null && BOOKING_ROLES.includes(role);

// ---- Statuses ----------------------------------------------------------------------------------------------------

/** Statuses that hold a place in their slot. */
export const LIVE_BOOKING_STATUSES: readonly TBookingStatus[] = ['NEW', 'PENDING_PAYMENT', 'PAID', 'COMPLETED'];

/**
 * The moves staff may make (architecture §7): NEW → PENDING_PAYMENT → PAID → COMPLETED, and CANCELED from any status
 * before COMPLETED. A booking without a price (0) has nothing to pay: NEW may go straight to COMPLETED.
 */
export function nextBookingStatuses(status: TBookingStatus, price: number): TBookingStatus[] {
  switch (status) {
    case 'NEW':
      return price > 0 ? ['PENDING_PAYMENT', 'CANCELED'] : ['PENDING_PAYMENT', 'COMPLETED', 'CANCELED'];
    case 'PENDING_PAYMENT':
      return ['PAID', 'CANCELED'];
    case 'PAID':
      return ['COMPLETED', 'CANCELED'];
    case 'COMPLETED':
    case 'CANCELED':
      return [];
  }
}
export const canMoveBooking = (from: TBookingStatus, to: TBookingStatus, price: number): boolean =>
  nextBookingStatuses(from, price).includes(to);

/** An offline payment (cash at the clinic…) is recorded on a booking that still owes its price. */
export const OFFLINE_PAYABLE_STATUSES: readonly TBookingStatus[] = ['NEW', 'PENDING_PAYMENT'];

/** Hours before its slot after which a booking can no longer be cancelled (null setting: up to the start). */
export function cancelDeadline(slotStart: Date, canBeCancelBeforeHours: number | null | undefined): Date {
  return new Date(slotStart.getTime() - Math.max(0, canBeCancelBeforeHours ?? 0) * 3_600_000);
}
export const canCancelAt = (slotStart: Date, hours: number | null | undefined, now: Date): boolean =>
  now.getTime() < cancelDeadline(slotStart, hours).getTime();

// ---- Slot arithmetic inputs (the API computes the slots in the organization's zone) --------------------------------

/** The public page offers this many days, today included, in the organization's time zone. */
export const BOOKING_DAYS_AHEAD = 30;
/** Each open day runs from the first to the last hour (local wall clock), cut in slots of SLOT_MINUTES. */
export const BOOKING_DAY_START = '09:00';
export const BOOKING_DAY_END = '17:00';
export const BOOKING_SLOT_MINUTES = 60;
/** Places of a slot when the organization has not set total_bookings_per_slot. */
export const DEFAULT_BOOKINGS_PER_SLOT = 1;
export const WEEKDAY_LABELS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
/** JavaScript's day (Sunday 0) → the organization's available_days id (MON 0 … SUN 6, part 1 §3). */
export const weekdayId = (jsDay: number): number => (jsDay + 6) % 7;

// ---- Limits ------------------------------------------------------------------------------------------------------

/** Live bookings one mobile number may make in a rolling day, and bookings one client address in an hour. */
/**
 * A slot instant as the clinic reads it: in the organization's time zone, never the viewer's (an ADMIN in India
 * must see a Manila clinic's 09:00 slot as 09:00). `date` '01 Dec 2026', `time` '09:00 AM', `zone` the zone's short
 * name at that instant ('GMT+8', 'GMT+5:30'), as Intl spells it in British English.
 */
export function clinicTime(iso: string, timeZone: string): { date: string; time: string; zone: string } {
  const at = new Date(iso);
  const parts = (options: Intl.DateTimeFormatOptions) =>
    Object.fromEntries(new Intl.DateTimeFormat('en-GB', { ...options, timeZone }).formatToParts(at).map((p) => [p.type, p.value]));
  const d = parts({ day: '2-digit', month: 'short', year: 'numeric' });
  const t = parts({ hour: '2-digit', minute: '2-digit', hour12: true, timeZoneName: 'short' });
  return {
    date: `${d.day} ${d.month} ${d.year}`,
    time: `${t.hour}:${t.minute} ${String(t.dayPeriod ?? '').toUpperCase()}`.trim(),
    zone: String(t.timeZoneName ?? timeZone),
  };
}

export const BOOKINGS_PER_MOBILE_PER_DAY = 3;
export const BOOKINGS_PER_ADDRESS_PER_HOUR = 20;
export const BOOKING_NAME_MAX = 50;
export const BOOKING_AGE_MIN = 1;
export const BOOKING_AGE_MAX = 120;
export const PAYMENT_REFERENCE_MAX = 100;
export type TOfflinePaymentMethod = (typeof OFFLINE_PAYMENT_METHODS)[number];

// ---- Messages ----------------------------------------------------------------------------------------------------

/** A status inside a sentence: its label in lower case ('pending payment'), never its code. */
const statusWord = (status: TBookingStatus): string => BOOKING_STATUS_LABELS[status].toLowerCase();

export const BOOKING_MESSAGES = {
  emptyNone: 'No booking yet!',
  emptyFiltered: 'No booking found!',
  searchPlaceholder: 'Search by name, mobile no, e-mail',
  allStatus: 'All Status',
  firstName: 'Enter your first name (letters only).',
  lastName: 'Enter your last name (letters only).',
  age: `Enter an age from ${BOOKING_AGE_MIN} to ${BOOKING_AGE_MAX}.`,
  slotRequired: 'Choose a time slot.',
  slotUnavailable: 'This time slot is not offered: choose another one.',
  slotFull: 'This time slot is full: choose another one.',
  slotPast: 'This time slot has already started: choose another one.',
  notTakingBookings: 'This organization does not take bookings.',
  dateNotOffered: 'The organization takes no bookings on this day.',
  tooManyForMobile: `This mobile number already has ${BOOKINGS_PER_MOBILE_PER_DAY} bookings made in the last 24 hours. Please try again later.`,
  tooManyForAddress: 'Too many bookings from this network. Please try again in an hour.',
  created: 'Your booking is confirmed.',
  createdPendingPayment: 'Your booking is reserved: pay at the clinic or as the organization tells you.',
  canceled: 'Booking canceled Successfully',
  statusUpdated: 'Booking status updated Successfully',
  paymentRecorded: 'Payment recorded Successfully',
  statusMove: (from: TBookingStatus, to: TBookingStatus) =>
    `A booking that is ${statusWord(from)} cannot be moved to ${statusWord(to)}.`,
  cancelTooLate: (hours: number) =>
    `A booking can be canceled only up to ${hours} hour${hours === 1 ? '' : 's'} before its slot.`,
  offlineNotAllowed: 'This organization does not accept offline payments.',
  offlineStatus: `Only a booking that is ${statusWord('NEW')} or ${statusWord('PENDING_PAYMENT')} can be paid.`,
  nothingToPay: 'This booking has no price to pay.',
  method: `Select a valid choice: ${OFFLINE_PAYMENT_METHODS.join(', ')}.`,
  referenceMax: `Ensure this field has no more than ${PAYMENT_REFERENCE_MAX} characters.`,
} as const;

// ---- The patient's form ------------------------------------------------------------------------------------------

/** Letters of any script, with spaces, apostrophes, hyphens and dots between them. */
export const BOOKING_NAME_PATTERN = /^[\p{L}\p{M}]+(?:[ .'-]+[\p{L}\p{M}]+)*\.?$/u;

const nameField = (message: string, required: boolean) => {
  const base = textField({ error: message }).trim().max(BOOKING_NAME_MAX, `Ensure this field has no more than ${BOOKING_NAME_MAX} characters.`);
  // One check, so an empty or a wrong name gets the message once.
  return base.refine((v) => (!required && v === '') || BOOKING_NAME_PATTERN.test(v), message);
};

/** The mobile's problem for the organization's country (ISO code), or null; the API and the page share it. */
export function bookingMobileProblem(mobile: string, country: string | null | undefined): string | null {
  return country ? mobileProblem(mobile, country) : parseMobile(mobile) ? null : MESSAGES.invalidPhone;
}

const ZIsoInstant = z
  .string({ error: BOOKING_MESSAGES.slotRequired })
  .trim()
  .min(1, BOOKING_MESSAGES.slotRequired)
  .max(40, BOOKING_MESSAGES.slotUnavailable)
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), BOOKING_MESSAGES.slotUnavailable);

/** POST appointment/{organization token}/booking/: the slot by its start, and the patient. */
export const ZBookingCreate = z.object({
  start: ZIsoInstant,
  first_name: nameField(BOOKING_MESSAGES.firstName, true),
  last_name: nameField(BOOKING_MESSAGES.lastName, false).default(''),
  /** Typed nationally or with the country code; it must be a mobile of the organization's country. */
  mobile: z.string({ error: MESSAGES.invalidPhone }).trim().min(1, MESSAGES.invalidPhone).max(32, MESSAGES.invalidPhone),
  /** Optional: empty or null means none. */
  email: z
    .preprocess(
      (v) => (v === null ? undefined : v),
      textField({ error: MESSAGES.invalidEmail })
        .trim()
        .max(254, MESSAGES.invalidEmail)
        .refine((v) => v === '' || EMAIL_PATTERN.test(v), MESSAGES.invalidEmail)
        .optional(),
    )
    .transform((v) => (v ? v.toLowerCase() : null)),
  age: z
    .number({ error: BOOKING_MESSAGES.age })
    .int(BOOKING_MESSAGES.age)
    .min(BOOKING_AGE_MIN, BOOKING_MESSAGES.age)
    .max(BOOKING_AGE_MAX, BOOKING_MESSAGES.age),
});
export type TBookingCreate = z.input<typeof ZBookingCreate>;
export type TBookingCreateParsed = z.output<typeof ZBookingCreate>;

// ---- Public answers ----------------------------------------------------------------------------------------------

export const ZPublicOrganization = z.object({
  name: z.string(),
  address: z.string(),
  country_code: z.string().nullable(),
  timezone: z.string(),
  price: z.number(),
  currency: z.string().nullable(),
  allow_offline_payment: z.boolean(),
  can_be_cancel_before: z.number().nullable(),
  available_days: z.array(z.number()),
  total_bookings_per_slot: z.number(),
  /**
   * The languages the page may speak (issue 23 item 17): English first, then the organization's language and its
   * consent forms' languages (iso_code lower case, name as in the Language menu). The page offers those it has words
   * for and falls back to English.
   */
  languages: z.array(z.object({ iso_code: z.string(), name: z.string() })),
});
export type TPublicOrganization = z.infer<typeof ZPublicOrganization>;

export const ZBookingDay = z.object({ date: z.string(), weekday: z.number(), places_left: z.number() });
export type TBookingDay = z.infer<typeof ZBookingDay>;

export const ZBookingSlot = z.object({
  start: z.string(),
  end: z.string(),
  capacity: z.number(),
  places_left: z.number(),
});
export type TBookingSlot = z.infer<typeof ZBookingSlot>;

export const ZSlotQuery = z.object({
  date: z.string({ error: 'Enter a valid date in YYYY-MM-DD format.' }).refine(isIsoDate, 'Enter a valid date in YYYY-MM-DD format.'),
});

/** What the patient sees of a booking (by its token): no id, no payment record. */
export const ZPublicBooking = z.object({
  token: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  price: z.number(),
  currency: z.string().nullable(),
  organization: z.object({ name: z.string(), address: z.string(), timezone: z.string() }),
  can_cancel: z.boolean(),
  cancel_before: z.string().nullable(),
  detail: z.string().optional(),
});
export type TPublicBooking = z.infer<typeof ZPublicBooking>;

// ---- Console -----------------------------------------------------------------------------------------------------

export const BOOKING_ORDERING_FIELDS = ['id', 'first_name', 'last_name', 'created', 'status', 'price'] as const;
export const BOOKING_DEFAULT_ORDERING = '-created';

export const ZBookingListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  organization: idParam('organization').optional(),
  slot: idParam('slot').optional(),
  status: z.enum(BOOKING_STATUSES, { error: `Select a valid choice: ${BOOKING_STATUSES.join(', ')}.` }).optional(),
  /** Slot Data: bookings whose slot starts on these days (YYYY-MM-DD, the caller's zone; one day when alone). */
  slot_after: z.string().refine(isIsoDate, 'Enter a valid date in YYYY-MM-DD format.').optional(),
  slot_before: z.string().refine(isIsoDate, 'Enter a valid date in YYYY-MM-DD format.').optional(),
  using_read_db: ZBoolParam.optional(),
});
export type TBookingListQuery = z.infer<typeof ZBookingListQuery>;

export const ZBooking = z.object({
  id: z.number(),
  token: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  age: z.number().nullable(),
  slot: z.number().nullable(),
  slot_data: z.object({ id: z.number(), start: z.string(), end: z.string() }).nullable(),
  organization: z.number(),
  /** timezone: the organization's IANA zone, in which its slots are laid out and shown. */
  organization_data: z.object({ id: z.number(), name: z.string(), timezone: z.string() }),
  currency: z.string().nullable(),
  price: z.number(),
  status: z.enum(BOOKING_STATUSES),
  status_changed: z.string(),
  created: z.string(),
  payment: z.record(z.string(), z.unknown()),
  /** The moves this booking allows now (cancel only before the organization's cut-off). */
  next_statuses: z.array(z.enum(BOOKING_STATUSES)),
  can_pay_offline: z.boolean(),
});
export type TBooking = z.infer<typeof ZBooking>;
export const ZBookingSaved = ZBooking.extend({ detail: z.string() });
export type TBookingSaved = z.infer<typeof ZBookingSaved>;

export const ZBookingStatusChange = z.object({
  status: z.enum(BOOKING_STATUSES, { error: `Select a valid choice: ${BOOKING_STATUSES.join(', ')}.` }),
});
export type TBookingStatusChange = z.infer<typeof ZBookingStatusChange>;

export const ZOfflinePayment = z.object({
  method: z.enum(OFFLINE_PAYMENT_METHODS, { error: BOOKING_MESSAGES.method }),
  reference: textField().trim().max(PAYMENT_REFERENCE_MAX, BOOKING_MESSAGES.referenceMax).optional().default(''),
});
export type TOfflinePayment = z.input<typeof ZOfflinePayment>;

export const ZBookingLink = z.object({ organization: z.number(), token: z.string(), path: z.string() });
export type TBookingLink = z.infer<typeof ZBookingLink>;

/** The public page's path for an organization token, and a booking's view/cancel page. */
export const bookingPagePath = (organizationToken: string): string => `/book/${encodeURIComponent(organizationToken)}`;
export const bookingViewPath = (organizationToken: string, bookingToken: string): string =>
  `${bookingPagePath(organizationToken)}/booking/${encodeURIComponent(bookingToken)}`;

/** Price in minor units shown as the spec has it (price / 100) with its currency. */
export function formatBookingPrice(price: number, currency: string | null | undefined): string {
  const amount = (price / 100).toFixed(2);
  return currency ? `${amount} ${currency}` : amount;
}
