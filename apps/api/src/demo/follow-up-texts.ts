// Words of the demo's follow-up timelines: referral facilities, staff notes, corrections and the reminder SMS in
// the demo's languages (placeholders only: a reminder never carries the finding).
import { DEFAULT_FOLLOW_UP_SMS_TEXT } from '@sc/shared/follow-up';

/** Facilities patients are referred to; prefixed with the organization's state or country. */
export const FACILITY_KINDS = [
  'District Hospital',
  'Regional Cancer Centre',
  'Medical College Hospital',
  "Women's Health Centre",
  'General Hospital, Oncology Clinic',
  'Community Health Centre',
];

export const OPEN_NOTES = [
  'Mobile number from the screening form checked with the clinic register.',
  'Husband answered; patient works day shifts, call after 6 pm.',
  'Asked the community health worker to visit.',
  'Patient travelling until next week.',
];
export const CONTACTED_NOTES = [
  'Explained the result and why a diagnostic visit is needed.',
  'Patient worried about the cost; told her the referral is free at the district hospital.',
  'Patient asked for a female doctor.',
  'Will come with her daughter; needs a Saturday appointment.',
];
export const REFERRED_NOTES = [
  'Appointment confirmed by the hospital.',
  'Reminded the patient of the appointment by phone.',
  'Transport voucher given.',
];
export const SEEN_NOTES = [
  'Biopsy taken; waiting for the pathology report.',
  'Ultrasound done; the report goes to the clinic.',
  'Colposcopy done; histology pending.',
  'Seen by the surgeon; results expected within two weeks.',
];
export const DECLINED_NOTES = [
  'Patient declined further tests after counselling.',
  'Patient prefers to wait; declined the referral.',
  'Family declined the referral.',
];
export const LOST_NOTES = [
  'Three attempts without reaching the patient.',
  'Number out of service and the address could not be found.',
  'Patient missed the appointment and could not be reached since.',
  'Moved away; no forwarding contact.',
];
export const LATE_CLOSE_NOTE = 'Diagnosis learned from the hospital records.';
export const SELF_REFERRAL_NOTE = 'Patient went to the hospital on her own before the referral.';
export const CORRECTION_NOTES = [
  'Recorded the wrong result: the call went to voicemail, a message was left.',
  'This attempt was entered twice; the first one stands.',
  'Wrong method recorded: this was a home visit, not a call.',
];

/** The reminder text of organizations that switched SMS on, per language iso code. */
export const SMS_TEXTS: Record<string, string> = {
  en: DEFAULT_FOLLOW_UP_SMS_TEXT,
  hi: 'प्रिय {first_name}, कृपया अपनी हाल की जाँच के बारे में {organization} ({organization_phone}) से संपर्क करें।',
  es: 'Estimada {first_name}: comuníquese con {organization} ({organization_phone}) sobre su reciente visita de detección.',
  sw: 'Mpendwa {first_name}, tafadhali wasiliana na {organization} ({organization_phone}) kuhusu uchunguzi wako wa hivi karibuni.',
  fr: 'Chère {first_name}, merci de contacter {organization} ({organization_phone}) au sujet de votre récent dépistage.',
  pt: 'Cara {first_name}, contacte {organization} ({organization_phone}) sobre a sua consulta de rastreio recente.',
  tl: 'Mahal na {first_name}, mangyaring tawagan ang {organization} ({organization_phone}) tungkol sa inyong screening.',
};
