// Fixed ingredients of the demo programme: countries with cities, names and mobile formats; the organization
// tree; languages; texts for consent forms, tutorials, findings and reviews.
import type { Rng } from './rng.ts';

export type City = { name: string; state: string; lat: number; lng: number; zip: string };

export type Country = {
  name: string;
  code: string;
  dialCode: string;
  currency: string;
  timezone: string;
  languageIso: string;
  domain: string;
  cities: readonly City[];
  female: readonly string[];
  male: readonly string[];
  last: readonly string[];
  /** A valid national mobile number (checked against libphonenumber in the seed test). */
  mobile: (rng: Rng) => string;
};

const prefixed = (prefixes: readonly string[], length: number) => (rng: Rng) => {
  const prefix = rng.pick(prefixes);
  return prefix + rng.digits(length - prefix.length);
};

export const COUNTRIES = {
  IN: {
    name: 'India',
    code: 'IN',
    dialCode: '+91',
    currency: 'INR',
    timezone: 'Asia/Kolkata',
    languageIso: 'hi',
    domain: 'in',
    cities: [
      { name: 'Mumbai', state: 'Maharashtra', lat: 19.076, lng: 72.8777, zip: '400001' },
      { name: 'Delhi', state: 'Delhi', lat: 28.6139, lng: 77.209, zip: '110001' },
      { name: 'Bengaluru', state: 'Karnataka', lat: 12.9716, lng: 77.5946, zip: '560001' },
      { name: 'Chennai', state: 'Tamil Nadu', lat: 13.0827, lng: 80.2707, zip: '600001' },
      { name: 'Pune', state: 'Maharashtra', lat: 18.5204, lng: 73.8567, zip: '411001' },
      { name: 'Jaipur', state: 'Rajasthan', lat: 26.9124, lng: 75.7873, zip: '302001' },
      { name: 'Hyderabad', state: 'Telangana', lat: 17.385, lng: 78.4867, zip: '500001' },
      { name: 'Kolkata', state: 'West Bengal', lat: 22.5726, lng: 88.3639, zip: '700001' },
      { name: 'Lucknow', state: 'Uttar Pradesh', lat: 26.8467, lng: 80.9462, zip: '226001' },
      { name: 'Nagpur', state: 'Maharashtra', lat: 21.1458, lng: 79.0882, zip: '440001' },
      { name: 'Nashik', state: 'Maharashtra', lat: 19.9975, lng: 73.7898, zip: '422001' },
    ],
    female: [
      'Priya',
      'Anita',
      'Sunita',
      'Kavita',
      'Lakshmi',
      'Meera',
      'Pooja',
      'Deepa',
      'Radha',
      'Asha',
      'Neha',
      'Shreya',
      'Divya',
      'Geeta',
      'Rekha',
      'Swati',
      'Nisha',
      'Anjali',
      'Sarita',
      'Usha',
    ],
    male: ['Rahul', 'Amit', 'Suresh', 'Vikram', 'Arjun', 'Rajesh', 'Sanjay', 'Manoj'],
    last: [
      'Sharma',
      'Patel',
      'Reddy',
      'Iyer',
      'Nair',
      'Gupta',
      'Singh',
      'Kumar',
      'Das',
      'Joshi',
      'Menon',
      'Rao',
      'Chatterjee',
      'Verma',
      'Pillai',
      'Mehta',
      'Desai',
      'Kulkarni',
    ],
    // Never 98765…: that range belongs to the demo accounts.
    mobile: prefixed(
      [
        '70',
        '72',
        '73',
        '74',
        '75',
        '76',
        '77',
        '78',
        '79',
        '81',
        '82',
        '83',
        '84',
        '85',
        '86',
        '88',
        '89',
        '90',
        '91',
        '93',
        '94',
        '95',
        '96',
        '97',
        '99',
      ],
      10,
    ),
  },
  KE: {
    name: 'Kenya',
    code: 'KE',
    dialCode: '+254',
    currency: 'KES',
    timezone: 'Africa/Nairobi',
    languageIso: 'sw',
    domain: 'ke',
    cities: [
      { name: 'Nairobi', state: 'Nairobi County', lat: -1.2921, lng: 36.8219, zip: '00100' },
      { name: 'Mombasa', state: 'Mombasa County', lat: -4.0435, lng: 39.6682, zip: '80100' },
      { name: 'Kisumu', state: 'Kisumu County', lat: -0.0917, lng: 34.768, zip: '40100' },
      { name: 'Nakuru', state: 'Nakuru County', lat: -0.3031, lng: 36.08, zip: '20100' },
      { name: 'Eldoret', state: 'Uasin Gishu County', lat: 0.5143, lng: 35.2698, zip: '30100' },
    ],
    female: [
      'Wanjiru',
      'Achieng',
      'Njeri',
      'Akinyi',
      'Wairimu',
      'Atieno',
      'Chebet',
      'Muthoni',
      'Nafula',
      'Jepkemboi',
      'Kerubo',
      'Naliaka',
    ],
    male: ['Otieno', 'Kamau', 'Kiprop', 'Mwangi', 'Omondi', 'Kipchoge'],
    last: [
      'Odhiambo',
      'Kamau',
      'Mwangi',
      'Otieno',
      'Kariuki',
      'Wekesa',
      'Njoroge',
      'Cheruiyot',
      'Ochieng',
      'Mutua',
      'Kiptoo',
      'Wambua',
    ],
    mobile: prefixed(['710', '711', '712', '720', '721', '722', '723', '724', '727', '790'], 9),
  },
  MX: {
    name: 'Mexico',
    code: 'MX',
    dialCode: '+52',
    currency: 'MXN',
    timezone: 'America/Mexico_City',
    languageIso: 'es',
    domain: 'mx',
    cities: [
      { name: 'Mexico City', state: 'Ciudad de México', lat: 19.4326, lng: -99.1332, zip: '06000' },
      { name: 'Guadalajara', state: 'Jalisco', lat: 20.6597, lng: -103.3496, zip: '44100' },
      { name: 'Monterrey', state: 'Nuevo León', lat: 25.6866, lng: -100.3161, zip: '64000' },
      { name: 'Puebla', state: 'Puebla', lat: 19.0414, lng: -98.2063, zip: '72000' },
      { name: 'Mérida', state: 'Yucatán', lat: 20.9674, lng: -89.5926, zip: '97000' },
    ],
    female: [
      'María',
      'Guadalupe',
      'Juana',
      'Verónica',
      'Alejandra',
      'Rosa',
      'Fernanda',
      'Gabriela',
      'Lucía',
      'Sofía',
      'Daniela',
      'Carmen',
    ],
    male: ['José', 'Juan', 'Luis', 'Carlos', 'Miguel', 'Jorge'],
    last: [
      'García',
      'Hernández',
      'López',
      'Martínez',
      'González',
      'Rodríguez',
      'Pérez',
      'Sánchez',
      'Ramírez',
      'Torres',
      'Flores',
      'Cruz',
    ],
    mobile: prefixed(['55', '33', '81', '22', '99'], 10),
  },
  PH: {
    name: 'Philippines',
    code: 'PH',
    dialCode: '+63',
    currency: 'PHP',
    timezone: 'Asia/Manila',
    languageIso: 'tl',
    domain: 'ph',
    cities: [
      { name: 'Manila', state: 'Metro Manila', lat: 14.5995, lng: 120.9842, zip: '1000' },
      { name: 'Cebu City', state: 'Cebu', lat: 10.3157, lng: 123.8854, zip: '6000' },
      { name: 'Davao City', state: 'Davao del Sur', lat: 7.1907, lng: 125.4553, zip: '8000' },
      { name: 'Quezon City', state: 'Metro Manila', lat: 14.676, lng: 121.0437, zip: '1100' },
      { name: 'Iloilo City', state: 'Iloilo', lat: 10.7202, lng: 122.5621, zip: '5000' },
    ],
    female: [
      'Maria',
      'Angelica',
      'Kristine',
      'Jocelyn',
      'Rowena',
      'Marites',
      'Cristina',
      'Janelle',
      'Rhea',
      'Liza',
      'Analyn',
      'Mylene',
    ],
    male: ['Jose', 'Mark', 'Rodel', 'Ramon', 'Paolo', 'Jerome'],
    last: [
      'Santos',
      'Reyes',
      'Cruz',
      'Bautista',
      'Ocampo',
      'Garcia',
      'Mendoza',
      'Torres',
      'Dela Cruz',
      'Villanueva',
      'Aquino',
      'Ramos',
    ],
    mobile: prefixed(['917', '918', '919', '920', '921', '927', '928', '939', '945', '966'], 10),
  },
  NG: {
    name: 'Nigeria',
    code: 'NG',
    dialCode: '+234',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    languageIso: 'yo',
    domain: 'ng',
    cities: [
      { name: 'Lagos', state: 'Lagos', lat: 6.5244, lng: 3.3792, zip: '100001' },
      { name: 'Abuja', state: 'Federal Capital Territory', lat: 9.0765, lng: 7.3986, zip: '900001' },
      { name: 'Kano', state: 'Kano', lat: 12.0022, lng: 8.592, zip: '700001' },
      { name: 'Ibadan', state: 'Oyo', lat: 7.3775, lng: 3.947, zip: '200001' },
      { name: 'Port Harcourt', state: 'Rivers', lat: 4.8156, lng: 7.0498, zip: '500001' },
    ],
    female: [
      'Chioma',
      'Ngozi',
      'Aisha',
      'Funmilayo',
      'Amaka',
      'Zainab',
      'Adaeze',
      'Folake',
      'Halima',
      'Blessing',
      'Yetunde',
      'Ifeoma',
    ],
    male: ['Emeka', 'Tunde', 'Ibrahim', 'Chinedu', 'Olumide', 'Musa'],
    last: [
      'Okafor',
      'Adeyemi',
      'Bello',
      'Okonkwo',
      'Ibrahim',
      'Eze',
      'Balogun',
      'Abubakar',
      'Nwosu',
      'Adebayo',
      'Okeke',
      'Yusuf',
    ],
    mobile: prefixed(['803', '806', '813', '816', '703', '706', '810', '814', '903', '906'], 10),
  },
  GH: {
    name: 'Ghana',
    code: 'GH',
    dialCode: '+233',
    currency: 'GHS',
    timezone: 'Africa/Accra',
    languageIso: 'ak',
    domain: 'gh',
    cities: [
      { name: 'Accra', state: 'Greater Accra', lat: 5.6037, lng: -0.187, zip: 'GA-100' },
      { name: 'Kumasi', state: 'Ashanti', lat: 6.6885, lng: -1.6244, zip: 'AK-039' },
      { name: 'Tamale', state: 'Northern', lat: 9.4008, lng: -0.8393, zip: 'NT-001' },
    ],
    female: ['Ama', 'Akosua', 'Abena', 'Efua', 'Adwoa', 'Yaa', 'Afua', 'Esi', 'Akua', 'Adjoa'],
    male: ['Kwame', 'Kofi', 'Kwabena', 'Yaw'],
    last: ['Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Appiah', 'Agyemang', 'Amoah', 'Darko', 'Ofori'],
    mobile: prefixed(['24', '54', '55', '20', '50'], 9),
  },
} as const satisfies Record<string, Country>;

export type CountryCode = keyof typeof COUNTRIES;

/** Roles the generator gives an organization's special places (the demo accounts sit there). */
export type OrgKey = 'demoDistributor' | 'demoClinic' | 'managerIndia' | 'managerKenya';

export type OrgPlan = {
  name: string;
  country: CountryCode;
  city: string;
  distributor?: boolean;
  key?: OrgKey;
  children?: readonly OrgPlan[];
};

const sub = (name: string, country: CountryCode, city: string, key?: OrgKey): OrgPlan => ({
  name,
  country,
  city,
  key,
});

// 46 organizations in 6 countries: one distributor tree per country (India has two, one with a sub-distributor)
// and stand-alone clinics.
export const ORGANIZATION_PLAN: readonly OrgPlan[] = [
  {
    name: 'Arogya Health Network',
    country: 'IN',
    city: 'Mumbai',
    distributor: true,
    key: 'demoDistributor',
    children: [
      sub('Arogya Clinic Pune', 'IN', 'Pune', 'managerIndia'),
      sub('Arogya Clinic Jaipur', 'IN', 'Jaipur'),
      {
        name: 'Arogya Maharashtra Hub',
        country: 'IN',
        city: 'Mumbai',
        distributor: true,
        children: [sub('Arogya Clinic Nagpur', 'IN', 'Nagpur'), sub('Arogya Clinic Nashik', 'IN', 'Nashik')],
      },
      sub('Arogya Clinic Lucknow', 'IN', 'Lucknow'),
    ],
  },
  {
    name: 'Sakhi Diagnostics',
    country: 'IN',
    city: 'Bengaluru',
    distributor: true,
    children: [
      sub('Sakhi Diagnostics Chennai', 'IN', 'Chennai'),
      sub('Sakhi Diagnostics Hyderabad', 'IN', 'Hyderabad'),
      sub('Sakhi Diagnostics Kolkata', 'IN', 'Kolkata'),
    ],
  },
  { name: "Sunrise Women's Clinic", country: 'IN', city: 'Delhi', key: 'demoClinic' },
  sub('Lotus Breast Care Centre', 'IN', 'Chennai'),
  sub('Kaveri Community Hospital', 'IN', 'Bengaluru'),
  sub('Ganga Maternity Home', 'IN', 'Kolkata'),
  sub('Shanti Medical Centre', 'IN', 'Hyderabad'),
  {
    name: 'Afya Bora Partners',
    country: 'KE',
    city: 'Nairobi',
    distributor: true,
    children: [
      sub('Afya Bora Kisumu', 'KE', 'Kisumu', 'managerKenya'),
      sub('Afya Bora Mombasa', 'KE', 'Mombasa'),
      sub('Afya Bora Nakuru', 'KE', 'Nakuru'),
    ],
  },
  sub("Nairobi Women's Health Centre", 'KE', 'Nairobi'),
  sub('Eldoret Community Clinic', 'KE', 'Eldoret'),
  sub('Coast Breast Care Centre', 'KE', 'Mombasa'),
  {
    name: 'Red Salud Mujer',
    country: 'MX',
    city: 'Mexico City',
    distributor: true,
    children: [
      sub('Red Salud Mujer Guadalajara', 'MX', 'Guadalajara'),
      sub('Red Salud Mujer Monterrey', 'MX', 'Monterrey'),
      sub('Red Salud Mujer Puebla', 'MX', 'Puebla'),
    ],
  },
  sub('Clínica Santa Fe', 'MX', 'Mexico City'),
  sub('Centro Médico del Sureste', 'MX', 'Mérida'),
  sub('Hospital Comunitario Tlaquepaque', 'MX', 'Guadalajara'),
  {
    name: 'Kalinga Health Alliance',
    country: 'PH',
    city: 'Manila',
    distributor: true,
    children: [
      sub('Kalinga Cebu', 'PH', 'Cebu City'),
      sub('Kalinga Davao', 'PH', 'Davao City'),
      sub('Kalinga Quezon City', 'PH', 'Quezon City'),
    ],
  },
  sub("Bayanihan Women's Clinic", 'PH', 'Iloilo City'),
  sub('Mindanao Diagnostic Centre', 'PH', 'Davao City'),
  {
    name: 'Lafiya Screening Network',
    country: 'NG',
    city: 'Abuja',
    distributor: true,
    children: [
      sub('Lafiya Lagos', 'NG', 'Lagos'),
      sub('Lafiya Kano', 'NG', 'Kano'),
      sub('Lafiya Ibadan', 'NG', 'Ibadan'),
    ],
  },
  sub("Port Harcourt Women's Clinic", 'NG', 'Port Harcourt'),
  sub('Ikeja Breast Care Centre', 'NG', 'Lagos'),
  {
    name: 'Nkabom Health',
    country: 'GH',
    city: 'Accra',
    distributor: true,
    children: [sub('Nkabom Kumasi', 'GH', 'Kumasi'), sub('Nkabom Tamale', 'GH', 'Tamale')],
  },
  sub("Osu Women's Clinic", 'GH', 'Accra'),
];

/** English is id 1 (new organizations default to language id 1). */
export const LANGUAGES = [
  { name: 'English', iso: 'en', tutorial: true },
  { name: 'Hindi', iso: 'hi', tutorial: true },
  { name: 'Spanish', iso: 'es', tutorial: true },
  { name: 'Swahili', iso: 'sw', tutorial: true },
  { name: 'French', iso: 'fr', tutorial: true },
  { name: 'Tagalog', iso: 'tl', tutorial: false },
  { name: 'Yoruba', iso: 'yo', tutorial: false },
  { name: 'Akan', iso: 'ak', tutorial: false },
  { name: 'Portuguese', iso: 'pt', tutorial: false },
  { name: 'Tamil', iso: 'ta', tutorial: false },
  { name: 'Telugu', iso: 'te', tutorial: false },
  { name: 'Bengali', iso: 'bn', tutorial: false },
] as const;

/**
 * Consent texts in Latin script only: the organization form accepts English and accented Latin letters
 * (part 1 §5), so a seeded text must survive an edit and save.
 */
export type ConsentTexts = { ibe: string[]; cervaical: string[]; orca: string[] };

export const CONSENT: { en: ConsentTexts } & Partial<Record<string, ConsentTexts>> = {
  en: {
    ibe: [
      'I agree to a breast examination with a handheld device and to the secure storage of my results.',
      'I understand that this examination is a screening, not a diagnosis, and that I may be referred for further tests.',
    ],
    cervaical: [
      'I agree to a cervical examination and to photographs of the cervix being taken and reviewed by trained staff.',
    ],
    orca: [
      'I agree to an oral examination and to photographs of my mouth being taken and reviewed by trained staff.',
    ],
  },
  es: {
    ibe: [
      'Acepto un examen de mama con un dispositivo portátil y el almacenamiento seguro de mis resultados.',
      'Entiendo que este examen es de detección, no un diagnóstico, y que pueden referirme a otras pruebas.',
    ],
    cervaical: [
      'Acepto un examen cervical y que personal capacitado tome y revise fotografías del cuello uterino.',
    ],
    orca: ['Acepto un examen bucal y que personal capacitado tome y revise fotografías de mi boca.'],
  },
  sw: {
    ibe: [
      'Ninakubali uchunguzi wa matiti kwa kifaa cha mkononi na uhifadhi salama wa matokeo yangu.',
      'Ninaelewa kuwa huu ni uchunguzi wa awali, si utambuzi, na ninaweza kupelekwa kwa vipimo zaidi.',
    ],
    cervaical: [
      'Ninakubali uchunguzi wa shingo ya kizazi na picha kuchukuliwa na kukaguliwa na wahudumu waliofunzwa.',
    ],
    orca: [
      'Ninakubali uchunguzi wa kinywa na picha za kinywa changu kuchukuliwa na kukaguliwa na wahudumu waliofunzwa.',
    ],
  },
  fr: {
    ibe: [
      "J'accepte un examen des seins avec un appareil portable et la conservation sécurisée de mes résultats.",
      "Je comprends que cet examen est un dépistage et non un diagnostic, et que je peux être orientée vers d'autres examens.",
    ],
    cervaical: [
      "J'accepte un examen du col de l'utérus et la prise de photographies examinées par un personnel formé.",
    ],
    orca: [
      "J'accepte un examen buccal et la prise de photographies de ma bouche examinées par un personnel formé.",
    ],
  },
  tl: {
    ibe: [
      'Pumapayag ako sa pagsusuri ng suso gamit ang handheld device at sa ligtas na pag-iimbak ng aking resulta.',
      'Naiintindihan ko na ito ay screening, hindi diagnosis, at maaari akong i-refer para sa iba pang pagsusuri.',
    ],
    cervaical: [
      'Pumapayag ako sa pagsusuri ng cervix at sa pagkuha ng larawan na susuriin ng sinanay na kawani.',
    ],
    orca: ['Pumapayag ako sa pagsusuri ng bibig at sa pagkuha ng larawan na susuriin ng sinanay na kawani.'],
  },
  pt: {
    ibe: [
      'Concordo com um exame das mamas com um dispositivo portátil e com o armazenamento seguro dos meus resultados.',
    ],
    cervaical: [
      'Concordo com um exame do colo do útero e com a revisão de fotografias por pessoal treinado.',
    ],
    orca: ['Concordo com um exame oral e com a revisão de fotografias da minha boca por pessoal treinado.'],
  },
};

export const BREAST_FINDINGS = [
  'Upper outer quadrant',
  'Upper inner quadrant',
  'Lower outer quadrant',
  'Lower inner quadrant',
  'Retroareolar region',
  'Axillary tail',
] as const;

export const SCAN_NOTES = [
  'Patient reported mild tenderness.',
  'Follow-up advised in six months.',
  'Referred for ultrasound.',
  'Previous scan at another centre.',
  'Patient anxious; procedure explained twice.',
  'Dense tissue noted.',
] as const;

export const CERVICAL_QUALITIES = [
  { name: 'Image in focus', required: true },
  { name: 'Adequate lighting', required: false },
  { name: 'Cervix fully visible', required: true },
  { name: 'No obstruction by mucus or blood', required: false },
  { name: 'Acetic acid applied', required: false },
] as const;

export const CERVICAL_FINDINGS = [
  { name: 'Acetowhite lesion', required: false },
  { name: 'Mosaicism', required: false },
  { name: 'Punctation', required: false },
  { name: 'Atypical vessels', required: false },
  { name: 'Ectropion', required: false },
  { name: 'Polyp', required: false },
  { name: 'Suspected invasive cancer', required: false },
] as const;

export const CERVICAL_SYMPTOM_TAGS = [
  'Before acetic acid',
  'After acetic acid',
  'Green filter',
  'Lugol iodine',
] as const;

export const ORCA_PARTS = {
  extra_oral_exam: [
    ['Face', 'Left side'],
    ['Face', 'Right side'],
    ['Lips', 'Upper lip'],
    ['Lips', 'Lower lip'],
  ],
  intra_oral_exam: [
    ['Buccal mucosa', 'Left'],
    ['Buccal mucosa', 'Right'],
    ['Tongue', 'Dorsal surface'],
    ['Tongue', 'Lateral border'],
    ['Floor of mouth', 'Anterior'],
    ['Palate', 'Hard palate'],
    ['Gingiva', 'Lower'],
  ],
  lymph_node_exam: [
    ['Neck', 'Submandibular'],
    ['Neck', 'Cervical chain'],
  ],
} as const;

export const ORCA_SYMPTOMS = [
  'White patch',
  'Red patch',
  'Ulcer',
  'Swelling',
  'Burning sensation',
  'Restricted mouth opening',
  'Palpable node',
] as const;
export const SMOKING_TYPES = ['Cigarette', 'Bidi', 'Hookah', 'Cigar'] as const;
export const SMOKELESS_TYPES = ['Gutka', 'Khaini', 'Betel quid', 'Snuff', 'Mishri'] as const;
export const OTHER_SUBSTANCES = ['Areca nut', 'Cannabis', 'Kratom'] as const;

export type TutorialPlan = {
  name: string;
  localize: Record<string, string>;
  contents: readonly { title: string; text: string; localize: Record<string, [string, string]> }[];
  quizzes: readonly {
    question: string;
    localize: Record<string, string>;
    options: readonly [string, boolean][];
  }[];
};

// Translations for hi, es, sw, fr; tutorials are the one place non-Latin scripts are allowed (part 3 §5).
export const TUTORIALS: readonly TutorialPlan[] = [
  {
    name: 'Introduction to breast screening',
    localize: {
      hi: 'स्तन जांच का परिचय',
      es: 'Introducción a la detección mamaria',
      sw: 'Utangulizi wa uchunguzi wa matiti',
      fr: 'Introduction au dépistage du sein',
    },
    contents: [
      {
        title: 'Why screen early',
        text: 'Early detection makes treatment simpler and more successful.',
        localize: {
          hi: ['जल्दी जांच क्यों', 'जल्दी पता चलने से इलाज आसान और सफल होता है।'],
          es: [
            'Por qué detectar a tiempo',
            'La detección temprana hace el tratamiento más sencillo y eficaz.',
          ],
          sw: [
            'Kwa nini uchunguzi wa mapema',
            'Kugundua mapema hurahisisha matibabu na kuyafanya yafanikiwe.',
          ],
          fr: [
            'Pourquoi dépister tôt',
            'Un dépistage précoce rend le traitement plus simple et plus efficace.',
          ],
        },
      },
      {
        title: 'Meet the device',
        text: 'The handheld device uses pressure sensors and no radiation.',
        localize: {
          hi: ['उपकरण से परिचय', 'यह हाथ में पकड़ा जाने वाला उपकरण दबाव सेंसर का उपयोग करता है, विकिरण का नहीं।'],
          es: [
            'Conozca el dispositivo',
            'El dispositivo portátil usa sensores de presión y no emite radiación.',
          ],
          sw: ['Kifaa chenyewe', 'Kifaa cha mkononi hutumia vihisi vya shinikizo bila mionzi.'],
          fr: [
            "Découvrir l'appareil",
            "L'appareil portable utilise des capteurs de pression, sans rayonnement.",
          ],
        },
      },
    ],
    quizzes: [
      {
        question: 'Does the device use radiation?',
        localize: {
          hi: 'क्या उपकरण विकिरण का उपयोग करता है?',
          es: '¿El dispositivo usa radiación?',
          sw: 'Je, kifaa hutumia mionzi?',
          fr: "L'appareil utilise-t-il des rayons ?",
        },
        options: [
          ['Yes', false],
          ['No', true],
        ],
      },
    ],
  },
  {
    name: 'Preparing the patient',
    localize: {
      hi: 'मरीज़ की तैयारी',
      es: 'Preparación de la paciente',
      sw: 'Kumwandaa mgonjwa',
      fr: 'Préparer la patiente',
    },
    contents: [
      {
        title: 'Consent and privacy',
        text: 'Explain the examination and take consent before starting.',
        localize: {
          hi: ['सहमति और निजता', 'शुरू करने से पहले जांच समझाएं और सहमति लें।'],
          es: [
            'Consentimiento y privacidad',
            'Explique el examen y obtenga el consentimiento antes de empezar.',
          ],
          sw: ['Idhini na faragha', 'Eleza uchunguzi na pata idhini kabla ya kuanza.'],
          fr: [
            'Consentement et intimité',
            "Expliquez l'examen et recueillez le consentement avant de commencer.",
          ],
        },
      },
      {
        title: 'Positioning',
        text: 'The patient lies flat with the arm raised above the head.',
        localize: {
          hi: ['स्थिति', 'मरीज़ सिर के ऊपर हाथ उठाकर सीधा लेटे।'],
          es: ['Posición', 'La paciente se acuesta con el brazo levantado sobre la cabeza.'],
          sw: ['Mkao', 'Mgonjwa alale chali na mkono juu ya kichwa.'],
          fr: ['Position', 'La patiente est allongée, le bras levé au-dessus de la tête.'],
        },
      },
    ],
    quizzes: [
      {
        question: 'When do you take consent?',
        localize: {
          hi: 'सहमति कब लेते हैं?',
          es: '¿Cuándo se obtiene el consentimiento?',
          sw: 'Idhini huchukuliwa lini?',
          fr: 'Quand recueillir le consentement ?',
        },
        options: [
          ['Before the examination', true],
          ['After the examination', false],
          ['Only if the result is positive', false],
        ],
      },
      {
        question: 'Which positions are correct?',
        localize: {
          hi: 'कौन सी स्थितियाँ सही हैं?',
          es: '¿Qué posiciones son correctas?',
          sw: 'Ni mikao ipi sahihi?',
          fr: 'Quelles positions sont correctes ?',
        },
        options: [
          ['Lying flat', true],
          ['Arm above the head', true],
          ['Standing', false],
          ['All of the above', false],
        ],
      },
    ],
  },
  {
    name: 'Performing the scan',
    localize: { hi: 'स्कैन करना', es: 'Realizar el escaneo', sw: 'Kufanya uchunguzi', fr: "Réaliser l'examen" },
    contents: [
      {
        title: 'Tile by tile',
        text: 'Cover every tile of the grid and keep the probe flat.',
        localize: {
          hi: ['एक-एक टाइल', 'ग्रिड की हर टाइल को कवर करें और प्रोब को सपाट रखें।'],
          es: ['Cuadro por cuadro', 'Cubra cada cuadro de la cuadrícula y mantenga la sonda plana.'],
          sw: ['Kigae kwa kigae', 'Funika kila kigae cha gridi na weka kifaa sawa.'],
          fr: ['Case par case', 'Couvrez chaque case de la grille en gardant la sonde à plat.'],
        },
      },
      {
        title: 'Reading the result',
        text: 'Red tiles show areas that need a clinical follow-up.',
        localize: {
          hi: ['परिणाम पढ़ना', 'लाल टाइलें उन क्षेत्रों को दिखाती हैं जिनकी आगे जांच ज़रूरी है।'],
          es: ['Leer el resultado', 'Los cuadros rojos indican zonas que requieren seguimiento clínico.'],
          sw: ['Kusoma matokeo', 'Vigae vyekundu vinaonyesha maeneo yanayohitaji ufuatiliaji.'],
          fr: ['Lire le résultat', 'Les cases rouges indiquent les zones à contrôler.'],
        },
      },
      {
        title: 'Saving and syncing',
        text: 'Reports upload when the tablet is online.',
        localize: {
          hi: ['सेव और सिंक', 'टैबलेट ऑनलाइन होने पर रिपोर्ट अपलोड होती हैं।'],
          es: ['Guardar y sincronizar', 'Los informes se suben cuando la tableta tiene conexión.'],
          sw: ['Kuhifadhi na kusawazisha', 'Ripoti hupakiwa kompyuta kibao ikiwa mtandaoni.'],
          fr: ['Enregistrer et synchroniser', 'Les rapports sont envoyés quand la tablette est en ligne.'],
        },
      },
    ],
    quizzes: [
      {
        question: 'What does a red tile mean?',
        localize: {
          hi: 'लाल टाइल का क्या अर्थ है?',
          es: '¿Qué significa un cuadro rojo?',
          sw: 'Kigae chekundu kinamaanisha nini?',
          fr: 'Que signifie une case rouge ?',
        },
        options: [
          ['An area that needs follow-up', true],
          ['A diagnosis of cancer', false],
          ['A device error', false],
        ],
      },
    ],
  },
  {
    name: 'Counselling and referral',
    localize: {
      hi: 'परामर्श और रेफ़रल',
      es: 'Consejería y referencia',
      sw: 'Ushauri na rufaa',
      fr: 'Conseil et orientation',
    },
    contents: [
      {
        title: 'Talking about results',
        text: 'Use simple words and explain the next step clearly.',
        localize: {
          hi: ['परिणाम पर बात', 'सरल शब्दों का प्रयोग करें और अगला कदम स्पष्ट बताएं।'],
          es: ['Hablar de los resultados', 'Use palabras sencillas y explique claramente el siguiente paso.'],
          sw: ['Kuzungumzia matokeo', 'Tumia maneno rahisi na eleza hatua inayofuata wazi.'],
          fr: ['Parler des résultats', "Employez des mots simples et expliquez clairement l'étape suivante."],
        },
      },
    ],
    quizzes: [
      {
        question: 'A positive scan means the patient has cancer.',
        localize: {
          hi: 'पॉज़िटिव स्कैन का मतलब कैंसर है।',
          es: 'Un escaneo positivo significa cáncer.',
          sw: 'Uchunguzi chanya unamaanisha saratani.',
          fr: 'Un examen positif signifie un cancer.',
        },
        options: [
          ['True', false],
          ['False', true],
        ],
      },
    ],
  },
];

/** Shorter modules, English with translated names, so the module list runs past one page. */
export const EXTRA_TUTORIALS: readonly TutorialPlan[] = [
  ['Breast anatomy basics', 'Anatomía básica de la mama', 'Notions d’anatomie du sein'],
  ['Device care and cleaning', 'Cuidado y limpieza del dispositivo', "Entretien et nettoyage de l'appareil"],
  ['Charging and batteries', 'Carga y baterías', 'Charge et batteries'],
  ['Syncing reports', 'Sincronizar informes', 'Synchroniser les rapports'],
  ['Infection control', 'Control de infecciones', 'Prévention des infections'],
  ['Patient privacy', 'Privacidad de la paciente', 'Confidentialité des patientes'],
  ['Outreach camps', 'Jornadas comunitarias', 'Campagnes de proximité'],
  ['Follow-up and referral tracking', 'Seguimiento de referencias', 'Suivi des orientations'],
].map(([name, es, fr]): TutorialPlan => ({
  name: name ?? '',
  localize: { es: es ?? '', fr: fr ?? '' },
  contents: [
    {
      title: `${name ?? ''}: overview`,
      text: `What every technician needs to know about ${(name ?? '').toLowerCase()}.`,
      localize: { es: [es ?? '', es ?? ''], fr: [fr ?? '', fr ?? ''] },
    },
    {
      title: `${name ?? ''}: checklist`,
      text: 'A short checklist to use before every session.',
      localize: {},
    },
  ],
  quizzes: [
    {
      question: `Have you reviewed the ${(name ?? '').toLowerCase()} checklist?`,
      localize: {},
      options: [
        ['Yes', true],
        ['No', false],
      ],
    },
  ],
}));
