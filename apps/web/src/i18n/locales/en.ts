// English: the source catalogue and every other language's fallback. A key missing from another catalogue shows
// its English words here; the type of this object is the shape every catalogue must fill (catalogue.ts).
import { BOOKING_MESSAGES, BOOKING_NAME_MAX } from '@sc/shared/bookings';
import { BOOKING_STATUS_LABELS } from '@sc/shared/labels';
import { MESSAGES } from '@sc/shared/validation';

export const en = {
  /** The public booking page `/book/<token>` (issue 23 item 17): what a patient reads. */
  booking: {
    languageName: 'English',
    language: 'Language',
    pageNotFound: 'This booking page does not exist.',
    bookingNotFound: 'This booking does not exist.',
    free: 'Free',
    payAtClinic: 'Pay at the clinic',
    chooseDay: 'Choose a day',
    chooseTime: 'Choose a time',
    yourDetails: 'Your details',
    timesIn: 'Times are in the clinic’s time zone: {{zone}}.',
    placesLeft: '{{count}} left',
    full: 'Full',
    placesLeftSpoken: '{{count}} places left',
    firstName: 'First name',
    lastName: 'Last name',
    mobile: 'Mobile',
    mobileHint: 'A mobile number in {{country}}',
    email: 'E-mail (optional)',
    age: 'Age',
    confirm: 'Confirm booking',
    status: 'Status',
    statuses: { ...BOOKING_STATUS_LABELS },
    linkIntro:
      'This link is your booking’s page: open it to see or cancel your booking. We also sent it to your mobile.',
    openBooking: 'Open your booking',
    copyLink: 'Copy link',
    linkCopied: 'Link copied',
    cancel: 'Cancel booking',
    keep: 'Keep it',
    cancelQuestion: 'Cancel your booking of {{when}}?',
    cancelClosed: 'This booking can no longer be canceled online.',
    cancelTooLate_one: 'A booking can be canceled only up to {{count}} hour before its slot.',
    cancelTooLate_other: 'A booking can be canceled only up to {{count}} hours before its slot.',
    /** The shared rules' messages (BOOKING_MESSAGES, MESSAGES), under their own keys: the page finds them by text. */
    messages: {
      firstName: BOOKING_MESSAGES.firstName,
      lastName: BOOKING_MESSAGES.lastName,
      age: BOOKING_MESSAGES.age,
      nameMax: `Ensure this field has no more than ${BOOKING_NAME_MAX} characters.`,
      invalidPhone: MESSAGES.invalidPhone,
      invalidEmail: MESSAGES.invalidEmail,
      slotRequired: BOOKING_MESSAGES.slotRequired,
      slotUnavailable: BOOKING_MESSAGES.slotUnavailable,
      slotFull: BOOKING_MESSAGES.slotFull,
      slotPast: BOOKING_MESSAGES.slotPast,
      notTakingBookings: BOOKING_MESSAGES.notTakingBookings,
      dateNotOffered: BOOKING_MESSAGES.dateNotOffered,
      tooManyForMobile: BOOKING_MESSAGES.tooManyForMobile,
      tooManyForAddress: BOOKING_MESSAGES.tooManyForAddress,
      created: BOOKING_MESSAGES.created,
      createdPendingPayment: BOOKING_MESSAGES.createdPendingPayment,
      canceled: BOOKING_MESSAGES.canceled,
    },
  },
};
