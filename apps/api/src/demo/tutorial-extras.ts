// A demo tutorial module with more than a page of contents and quizzes (issue 11): the content list and the quiz
// list modal show their paging footers (part 3 §2: above 10 rows). Texts in English with French and Spanish
// translations for some items, so the language setting modals have rows too.
import type { TutorialPlan } from './catalog.ts';

const STEPS = [
  ['Switching on', 'Hold the power button until the light turns green.'],
  ['Checking the battery', 'Charge the device when the battery shows one bar.'],
  ['Opening the app', 'Sign in with your e-mail or your mobile number.'],
  ['Choosing the patient', 'Search the patient by name or create a new one.'],
  ['Positioning the patient', 'The patient lies flat with the arm above the head.'],
  ['Applying the gel', 'A thin layer of gel keeps the sensor in contact.'],
  ['Scanning the left side', 'Move the sensor slowly over each tile shown.'],
  ['Scanning the right side', 'Repeat the same tiles on the right side.'],
  ['Reviewing the tiles', 'Rescan any tile the app marks in red.'],
  ['Saving the report', 'The report is uploaded when the device is online.'],
  ['Cleaning the sensor', 'Wipe the sensor with an alcohol-free wipe.'],
  ['Ending the session', 'Sign out when you leave the device.'],
] as const;

const FR: Record<string, [string, string]> = {
  'Switching on': ['Mise en marche', "Maintenez le bouton jusqu'à ce que le voyant devienne vert."],
  'Applying the gel': ['Application du gel', 'Une fine couche de gel garde le capteur en contact.'],
};
const ES: Record<string, [string, string]> = {
  'Switching on': ['Encendido', 'Mantenga pulsado el botón hasta que la luz se ponga verde.'],
};

export const STEP_BY_STEP_TUTORIAL: TutorialPlan = {
  name: 'Step-by-step scan walkthrough',
  localize: { fr: "Examen pas à pas", es: 'Examen paso a paso' },
  contents: STEPS.map(([title, text]) => ({
    title,
    text,
    localize: {
      ...(FR[title] ? { fr: FR[title] } : {}),
      ...(ES[title] ? { es: ES[title] } : {}),
    },
  })),
  quizzes: STEPS.slice(0, 11).map(([title, text], i) => {
    const localize: Record<string, string> = i === 0 ? { fr: 'Étape 1 : laquelle est juste ?' } : {};
    const options: [string, boolean][] = [
      [text, true],
      ['It can be skipped.', false],
      ['Only a doctor may do it.', false],
    ];
    return { question: `Step ${i + 1}: which is right about "${title.toLowerCase()}"?`, localize, options };
  }),
};
