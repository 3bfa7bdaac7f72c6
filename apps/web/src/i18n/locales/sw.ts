// Kiswahili (Swahili): the public booking page for patients (issue 23 item 17).
import {
  BOOKINGS_PER_MOBILE_PER_DAY as PER_DAY,
  BOOKING_AGE_MAX,
  BOOKING_AGE_MIN,
  BOOKING_NAME_MAX,
} from '@sc/shared/bookings';
import type { Catalogue } from '../catalogue.ts';

export const sw: Catalogue = {
  booking: {
    languageName: 'Kiswahili',
    language: 'Lugha',
    pageNotFound: 'Ukurasa huu wa miadi haupo.',
    bookingNotFound: 'Miadi hii haipo.',
    free: 'Bila malipo',
    payAtClinic: 'Lipa ukiwa kliniki',
    chooseDay: 'Chagua siku',
    chooseTime: 'Chagua saa',
    yourDetails: 'Taarifa zako',
    timesIn: 'Saa zinaonyeshwa kwa saa za eneo la kliniki: {{zone}}.',
    placesLeft: 'Nafasi {{count}}',
    full: 'Imejaa',
    placesLeftSpoken: 'nafasi {{count}} zimebaki',
    firstName: 'Jina la kwanza',
    lastName: 'Jina la ukoo',
    mobile: 'Simu ya mkononi',
    mobileHint: 'Namba ya simu ya mkononi ya {{country}}',
    email: 'Barua pepe (si lazima)',
    age: 'Umri',
    confirm: 'Thibitisha miadi',
    status: 'Hali',
    statuses: {
      NEW: 'Mpya',
      PENDING_PAYMENT: 'Inasubiri malipo',
      PAID: 'Imelipwa',
      COMPLETED: 'Imekamilika',
      CANCELED: 'Imeghairiwa',
    },
    linkIntro:
      'Kiungo hiki ni ukurasa wa miadi yako: kifungue ili kuiona au kuighairi. Tumekituma pia kwenye simu yako.',
    openBooking: 'Fungua miadi yako',
    copyLink: 'Nakili kiungo',
    linkCopied: 'Kiungo kimenakiliwa',
    cancel: 'Ghairi miadi',
    keep: 'Usighairi',
    cancelQuestion: 'Ghairi miadi yako ya {{when}}?',
    cancelClosed: 'Miadi hii haiwezi tena kughairiwa mtandaoni.',
    cancelTooLate_one: 'Miadi inaweza kughairiwa hadi saa {{count}} kabla ya muda wake tu.',
    cancelTooLate_other: 'Miadi inaweza kughairiwa hadi saa {{count}} kabla ya muda wake tu.',
    messages: {
      firstName: 'Andika jina lako la kwanza (herufi tu).',
      lastName: 'Andika jina lako la ukoo (herufi tu).',
      age: `Andika umri kati ya ${BOOKING_AGE_MIN} na ${BOOKING_AGE_MAX}.`,
      nameMax: `Sehemu hii isizidi herufi ${BOOKING_NAME_MAX}.`,
      invalidPhone: 'Tafadhali andika namba sahihi ya simu.',
      invalidEmail: 'Andika anwani sahihi ya barua pepe.',
      slotRequired: 'Chagua muda.',
      slotUnavailable: 'Muda huu haupatikani: chagua mwingine.',
      slotFull: 'Muda huu umejaa: chagua mwingine.',
      slotPast: 'Muda huu umeshaanza: chagua mwingine.',
      notTakingBookings: 'Shirika hili halipokei miadi.',
      dateNotOffered: 'Shirika halipokei miadi siku hii.',
      tooManyForMobile:
        `Namba hii tayari ina miadi ${PER_DAY} ndani ya saa 24 zilizopita. ` +
        'Tafadhali jaribu tena baadaye.',
      tooManyForAddress: 'Miadi mingi mno kutoka mtandao huu. Tafadhali jaribu tena baada ya saa moja.',
      created: 'Miadi yako imethibitishwa.',
      createdPendingPayment:
        'Miadi yako imehifadhiwa: lipa ukiwa kliniki au kama shirika litakavyokuelekeza.',
      canceled: 'Miadi imeghairiwa.',
    },
  },
};
