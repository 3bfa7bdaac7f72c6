// Two patients and what each search term finds among them, for the tests of the lists that search their patients
// (patientOrIdSearch): a part of the name, across the space, of the mobile or of the e-mail, in any case.
export const SEARCH_PATIENTS = {
  anjali: {
    firstName: 'Anjali',
    lastName: 'Deshmukh',
    mobile: '+91-9811122233',
    email: 'Anjali.D@Example.ORG',
  },
  beatrice: {
    firstName: 'Beatrice',
    lastName: 'Otieno',
    mobile: '+254-700555666',
    email: 'b.otieno@kisumu.test',
  },
} as const;
export type SearchPatient = keyof typeof SEARCH_PATIENTS;

export const PATIENT_SEARCH_CASES: readonly (readonly [term: string, finds: readonly SearchPatient[]])[] = [
  ['anj', ['anjali']],
  ['DESHM', ['anjali']],
  ['jali desh', ['anjali']],
  ['98111', ['anjali']],
  ['+254-700', ['beatrice']],
  ['example.org', ['anjali']],
  ['OTIENO@KISUMU', ['beatrice']],
  ['e', ['anjali', 'beatrice']],
  // LIKE's wildcard matches itself only.
  ['%', []],
  ['zzz', []],
];
