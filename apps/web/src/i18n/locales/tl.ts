// Tagalog: the public booking page for patients (issue 23 item 17).
import {
  BOOKINGS_PER_MOBILE_PER_DAY as PER_DAY,
  BOOKING_AGE_MAX,
  BOOKING_AGE_MIN,
  BOOKING_NAME_MAX,
} from '@sc/shared/bookings';
import type { Catalogue } from '../catalogue.ts';

export const tl: Catalogue = {
  booking: {
    languageName: 'Tagalog',
    language: 'Wika',
    pageNotFound: 'Hindi umiiral ang pahinang ito ng booking.',
    bookingNotFound: 'Hindi umiiral ang booking na ito.',
    free: 'Libre',
    payAtClinic: 'Magbayad sa klinika',
    chooseDay: 'Pumili ng araw',
    chooseTime: 'Pumili ng oras',
    yourDetails: 'Ang iyong detalye',
    timesIn: 'Ang mga oras ay nasa time zone ng klinika: {{zone}}.',
    placesLeft: '{{count}} bakante',
    full: 'Puno na',
    placesLeftSpoken: '{{count}} bakanteng puwesto',
    firstName: 'Pangalan',
    lastName: 'Apelyido',
    mobile: 'Mobile',
    mobileHint: 'Mobile number sa {{country}}',
    email: 'E-mail (opsyonal)',
    age: 'Edad',
    confirm: 'Kumpirmahin ang booking',
    status: 'Status',
    statuses: {
      NEW: 'Bago',
      PENDING_PAYMENT: 'Naghihintay ng bayad',
      PAID: 'Bayad na',
      COMPLETED: 'Tapos na',
      CANCELED: 'Kinansela',
    },
    linkIntro:
      'Ang link na ito ang pahina ng iyong booking: buksan ito para makita o makansela ang booking. ' +
      'Ipinadala rin namin ito sa iyong mobile.',
    openBooking: 'Buksan ang iyong booking',
    copyLink: 'Kopyahin ang link',
    linkCopied: 'Nakopya ang link',
    cancel: 'Kanselahin ang booking',
    keep: 'Huwag kanselahin',
    cancelQuestion: 'Kanselahin ang iyong booking sa {{when}}?',
    cancelClosed: 'Hindi na maaaring kanselahin online ang booking na ito.',
    cancelTooLate_one: 'Maaari lang kanselahin ang booking hanggang {{count}} oras bago ang iskedyul nito.',
    cancelTooLate_other: 'Maaari lang kanselahin ang booking hanggang {{count}} oras bago ang iskedyul nito.',
    messages: {
      firstName: 'Ilagay ang iyong pangalan (mga titik lamang).',
      lastName: 'Ilagay ang iyong apelyido (mga titik lamang).',
      age: `Ilagay ang edad mula ${BOOKING_AGE_MIN} hanggang ${BOOKING_AGE_MAX}.`,
      nameMax: `Hanggang ${BOOKING_NAME_MAX} character lamang ang field na ito.`,
      invalidPhone: 'Maglagay ng wastong numero ng telepono.',
      invalidEmail: 'Maglagay ng wastong e-mail address.',
      slotRequired: 'Pumili ng oras.',
      slotUnavailable: 'Hindi available ang oras na ito: pumili ng iba.',
      slotFull: 'Puno na ang oras na ito: pumili ng iba.',
      slotPast: 'Nagsimula na ang oras na ito: pumili ng iba.',
      notTakingBookings: 'Hindi tumatanggap ng booking ang organisasyong ito.',
      dateNotOffered: 'Walang booking ang organisasyon sa araw na ito.',
      tooManyForMobile: `May ${PER_DAY} booking na ang numerong ito sa nakaraang 24 oras. Subukan muli mamaya.`,
      tooManyForAddress:
        'Masyadong maraming booking mula sa network na ito. Subukan muli pagkalipas ng isang oras.',
      created: 'Kumpirmado na ang iyong booking.',
      createdPendingPayment:
        'Naka-reserve ang iyong booking: magbayad sa klinika o ayon sa sasabihin ng organisasyon.',
      canceled: 'Nakansela ang booking.',
    },
  },
};
