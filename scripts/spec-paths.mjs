// Writes apps/api/src/modules/spec-paths/spec-paths.json: every METHOD + path the specification names (issue 23.21),
// which spec-paths.test.ts checks against the OpenAPI document the API serves. Run once when the specification
// changes: `node scripts/spec-paths.mjs <folder of the three spec parts>`; the test reads the committed file.
//
// Two sources in the spec's text:
// 1. 'METHOD[, METHOD] path/' wherever it is written (part 1 §7's table, part 2 §7, part 3 §7): read by EXPLICIT.
// 2. Part 1 §7's list of 'Other listed endpoints' (names without methods), and the calls part 2 §7 and part 3 §7
//    describe by name ('GET one by {id}', 'PUT and PATCH by {id}'): NAMED below gives each name its methods as those
//    sections describe them, with the citation. A name that is not a path ('admin booking', 'date', 'slot') is the
//    product route that serves it. NOT_SERVED lists what the spec names and the product does not answer, with why.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const specDir = process.argv[2] ?? '/work/shared/spec';
const out = path.join(root, 'apps/api/src/modules/spec-paths/spec-paths.json');

const parts = fs
  .readdirSync(specDir)
  .filter((f) => /^\d-.*\.md$/.test(f))
  .sort()
  .map((file) => ({ file, part: Number(file[0]), text: fs.readFileSync(path.join(specDir, file), 'utf8') }));
if (parts.length !== 3) throw new Error(`Expected the three parts of the specification in ${specDir}`);

const METHOD = '(?:GET|POST|PUT|PATCH|DELETE)';
const PATH = '/?(?:api/v1/)?[a-z_][a-z0-9_-]*(?:/[a-z0-9_{}-]+)*/?';
const EXPLICIT = new RegExp(`\\b(${METHOD}(?:, ${METHOD})*) (${PATH}(?:, ${PATH})*)`, 'g');

/** '/patient/{id}' and 'api/v1/user/' → '/api/v1/patient/{id}/', '/api/v1/user/'. */
function normalize(raw) {
  const bare = raw.replace(/^\//, '').replace(/^api\/v1\//, '').replace(/\/$/, '');
  return `/api/v1/${bare}/`;
}

const entries = new Map();
function add(method, raw, cite) {
  const p = normalize(raw);
  const key = `${method} ${p}`;
  if (!entries.has(key)) entries.set(key, { method, path: p, cite });
}

for (const { part, text } of parts) {
  const lines = text.split('\n');
  lines.forEach((line) => {
    const section = sectionOf(lines, line);
    for (const m of line.matchAll(EXPLICIT)) {
      const paths = m[2].split(', ').filter((p) => p.includes('/'));
      for (const method of m[1].split(', ')) for (const p of paths) add(method, p, `part ${part} ${section}`);
    }
  });
}

function sectionOf(lines, line) {
  const at = lines.indexOf(line);
  for (let i = at; i >= 0; i--) {
    const h = /^## (\d+)\./.exec(lines[i]);
    if (h) return `§${h[1]}`;
  }
  return '';
}

// Part 1 §7 'Other listed endpoints': the names, as written.
const part1 = parts[0].text;
const listed = /Other listed endpoints, [^:]*: ([^\n]*)\./.exec(part1);
if (!listed) throw new Error("Part 1 §7's list of other endpoints was not found");
const names = listed[1].split(', ').map((n) => n.trim());

const NAMED = {
  scan: [['GET', 'scan'], ['POST', 'scan']], // part 2 §7: GET scan list; POST create
  'scan/{id}': [['GET', 'scan/{id}'], ['DELETE', 'scan/{id}']], // part 2 §7: GET scan by id; DELETE duplicate scan
  'scan/latlng': [['GET', 'scan/latlng']], // part 2 §7: GET scan latitude/longitude list
  'scan/recentscan': [['GET', 'scan/recentscan']], // part 2 §7: recent scans
  'scan/technicians': [['GET', 'scan/technicians']], // part 2 §7: technicians list
  'scan/devices': [['GET', 'scan/devices']], // part 2 §7: scan devices list
  'scan/dashboard': [['GET', 'scan/dashboard']], // part 2 §7: GET dashboard stats
  'scan/device-positive': [['GET', 'scan/device-positive']], // part 2 §7: GET device positivity list
  'scan/from/ids': [['POST', 'scan/from/ids']], // part 2 §7: Scan-from-ids (POST, query parameters)
  'scan/sensor-serial-number': [['GET', 'scan/sensor-serial-number']], // part 2 §7: sensor serial number list
  'scan/{id}/transfer (POST)': [['POST', 'scan/{id}/transfer']],
  cervaical: [['GET', 'cervaical']], // part 3 §7: GET list
  'cervaical/{id}': [['GET', 'cervaical/{id}']], // part 3 §7: GET cervical scan detail by id
  'cervaical/document': [['GET', 'cervaical/document']], // part 3 §7: GET review documents
  // part 3 §7: one POST per document-user (PATCH by id when the review already has an id)
  'cervaical/document_user': [['POST', 'cervaical/document_user'], ['PATCH', 'cervaical/document_user/{id}']],
  patient: [['GET', 'patient'], ['POST', 'patient']], // part 2 §7: GET list; POST create
  'patient/{id}': [['GET', 'patient/{id}'], ['PATCH', 'patient/{id}'], ['DELETE', 'patient/{id}']],
  'patient/{id}/transfer': [['POST', 'patient/{id}/transfer']], // part 2 §7: POST patient transfer /{id}
  device: [['GET', 'device'], ['POST', 'device']], // part 2 §7: GET device list; POST device create
  'device/{id}': [['GET', 'device/{id}'], ['PUT', 'device/{id}']], // part 2 §7: GET device by {id}; PUT by {id}
  'device/link/organization': [['POST', 'device/link/organization']], // part 2 §7: POST organization device link
  // part 2 §7: organization-device list GET; PATCH link {organization: null}; DELETE link by {id}
  'organization/device': [
    ['GET', 'organization/device'],
    ['GET', 'organization/device/{id}'],
    ['PATCH', 'organization/device/{id}'],
    ['DELETE', 'organization/device/{id}'],
  ],
  'organization/leaderboard': [['GET', 'organization/leaderboard']], // part 1 §7: leaderboard list
  'organization/technician-positive': [['GET', 'organization/technician-positive']], // part 2 §7
  // part 3 §7 Firmware: GET list; GET one by {id}; POST create with version and path; PUT and PATCH by {id}
  firmware: [
    ['GET', 'firmware'],
    ['POST', 'firmware'],
    ['GET', 'firmware/{id}'],
    ['PUT', 'firmware/{id}'],
    ['PATCH', 'firmware/{id}'],
  ],
  // The public booking page's calls (part 1 §7 names them only): the page is reached by its link's token.
  appointment: [['GET', 'appointment/{token}']],
  booking: [['POST', 'appointment/{token}/booking'], ['GET', 'appointment/{token}/booking/{booking}']],
  date: [['GET', 'appointment/{token}/date']],
  slot: [['GET', 'appointment/{token}/slot']],
  // part 3 §7 Bookings: GET booking list; GET booking by {id}
  'admin booking': [['GET', 'booking'], ['GET', 'booking/{id}']],
  'orca/case-history': [['GET', 'orca/case-history']], // issue 23.21: GET orca/case-history/?scan=
  // part 3 §7 Modules, Quizzes, Quiz options, Content (each: list, create, by {id}) and module completion
  'tutorial module/content/quiz/quiz option/module-completed': [
    ['GET', 'tutorial/module'],
    ['POST', 'tutorial/module'],
    ['GET', 'tutorial/module/{id}'],
    ['PUT', 'tutorial/module/{id}'],
    ['GET', 'tutorial/quiz'],
    ['POST', 'tutorial/quiz'],
    ['GET', 'tutorial/quiz/{id}'],
    ['PUT', 'tutorial/quiz/{id}'],
    ['GET', 'tutorial/quiz-option'],
    ['POST', 'tutorial/quiz-option'],
    ['PUT', 'tutorial/quiz-option/{id}'],
    ['DELETE', 'tutorial/quiz-option/{id}'],
    ['GET', 'tutorial/content'],
    ['POST', 'tutorial/content'],
    ['GET', 'tutorial/content/{id}'],
    ['PUT', 'tutorial/content/{id}'],
    ['DELETE', 'tutorial/content/{id}'],
    ['POST', 'tutorial/module-completed'],
  ],
  report_log: [['GET', 'report_log']], // part 3 §7 Report log: GET
};

const NOT_SERVED = {
  'organization/date': {
    method: 'GET',
    path: 'organization/date',
    reason:
      'Part 1 §7 names it among the booking calls with no method, query or shape, and no screen of the spec calls it: ' +
      'what it answers is an open point (issue 23.21 does not list it); the booking dates are GET appointment/{token}/date/.',
  },
};

// Calls part 3 §7 describes by name on paths part 1 §7 gives (language/{id}/, app_version/{id}/ 'PUT by {id}';
// licences 'GET by id').
const BY_NAME = [
  ['PUT', 'language/{id}', 'part 3 §7 Languages: PUT by {id}'],
  ['PUT', 'app_version/{id}', 'part 3 §7 App versions: PUT by id'],
  ['GET', 'organization/license/{id}', 'part 3 §7 Licences: GET by id'],
];

const notServed = [];
for (const name of names) {
  if (NOT_SERVED[name]) {
    const n = NOT_SERVED[name];
    notServed.push({ method: n.method, path: normalize(n.path), cite: 'part 1 §7', reason: n.reason });
    continue;
  }
  const calls = NAMED[name];
  if (!calls) throw new Error(`Part 1 §7 names '${name}': give it its methods in NAMED or a reason in NOT_SERVED`);
  for (const [method, p] of calls) add(method, p, `part 1 §7 (${name})`);
}
for (const [method, p, cite] of BY_NAME) add(method, p, cite);

const paths = [...entries.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
const data = {
  about:
    'Every METHOD + path the specification names (written by scripts/spec-paths.mjs from its three parts; ' +
    'read by spec-paths.test.ts against the OpenAPI document). Path parameters are named as the product names them.',
  parts: parts.map((p) => p.text.split('\n')[0].replace(/^# /, '')),
  paths,
  not_served: notServed,
};
fs.writeFileSync(out, `${JSON.stringify(data, null, 2)}\n`);
console.log(`${paths.length} paths, ${notServed.length} not served → ${path.relative(root, out)}`);
