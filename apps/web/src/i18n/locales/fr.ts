// Français (French): the public booking page for patients (issue 23 item 17).
import {
  BOOKINGS_PER_MOBILE_PER_DAY as PER_DAY,
  BOOKING_AGE_MAX,
  BOOKING_AGE_MIN,
  BOOKING_NAME_MAX,
} from '@sc/shared/bookings';
import type { Catalogue } from '../catalogue.ts';

export const fr: Catalogue = {
  booking: {
    languageName: 'Français',
    language: 'Langue',
    pageNotFound: 'Cette page de rendez-vous n’existe pas.',
    bookingNotFound: 'Ce rendez-vous n’existe pas.',
    free: 'Gratuit',
    payAtClinic: 'Paiement à la clinique',
    chooseDay: 'Choisissez un jour',
    chooseTime: 'Choisissez une heure',
    yourDetails: 'Vos coordonnées',
    timesIn: 'Les heures sont celles du fuseau horaire de la clinique : {{zone}}.',
    placesLeft: 'Libres : {{count}}',
    full: 'Complet',
    placesLeftSpoken: 'places libres : {{count}}',
    firstName: 'Prénom',
    lastName: 'Nom',
    mobile: 'Mobile',
    mobileHint: 'Numéro de mobile ({{country}})',
    email: 'E-mail (facultatif)',
    age: 'Âge',
    confirm: 'Confirmer le rendez-vous',
    status: 'Statut',
    statuses: {
      NEW: 'Nouveau',
      PENDING_PAYMENT: 'Paiement en attente',
      PAID: 'Payé',
      COMPLETED: 'Terminé',
      CANCELED: 'Annulé',
    },
    linkIntro:
      'Ce lien est la page de votre rendez-vous : ouvrez-le pour le consulter ou l’annuler. ' +
      'Nous l’avons aussi envoyé sur votre mobile.',
    openBooking: 'Ouvrir votre rendez-vous',
    copyLink: 'Copier le lien',
    linkCopied: 'Lien copié',
    cancel: 'Annuler le rendez-vous',
    keep: 'Le garder',
    cancelQuestion: 'Annuler votre rendez-vous du {{when}} ?',
    cancelClosed: 'Ce rendez-vous ne peut plus être annulé en ligne.',
    cancelTooLate_one: 'Un rendez-vous ne peut être annulé que jusqu’à {{count}} heure avant son horaire.',
    cancelTooLate_other: 'Un rendez-vous ne peut être annulé que jusqu’à {{count}} heures avant son horaire.',
    messages: {
      firstName: 'Saisissez votre prénom (lettres uniquement).',
      lastName: 'Saisissez votre nom (lettres uniquement).',
      age: `Saisissez un âge de ${BOOKING_AGE_MIN} à ${BOOKING_AGE_MAX} ans.`,
      nameMax: `Ce champ ne peut pas dépasser ${BOOKING_NAME_MAX} caractères.`,
      invalidPhone: 'Saisissez un numéro de téléphone valide.',
      invalidEmail: 'Saisissez une adresse e-mail valide.',
      slotRequired: 'Choisissez un créneau.',
      slotUnavailable: 'Ce créneau n’est pas proposé : choisissez-en un autre.',
      slotFull: 'Ce créneau est complet : choisissez-en un autre.',
      slotPast: 'Ce créneau a déjà commencé : choisissez-en un autre.',
      notTakingBookings: 'Cet établissement ne prend pas de rendez-vous.',
      dateNotOffered: 'L’établissement ne prend pas de rendez-vous ce jour-là.',
      tooManyForMobile:
        `Ce numéro a déjà ${PER_DAY} rendez-vous pris au cours des dernières 24 heures. ` +
        'Réessayez plus tard.',
      tooManyForAddress: 'Trop de rendez-vous depuis ce réseau. Réessayez dans une heure.',
      created: 'Votre rendez-vous est confirmé.',
      createdPendingPayment:
        'Votre rendez-vous est réservé : payez à la clinique ou comme l’établissement vous l’indique.',
      canceled: 'Rendez-vous annulé.',
    },
  },
};
