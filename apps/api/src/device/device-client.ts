// What `npm run device` does, as a device would (issue 8): sign in with the mobile code (reading the code from the
// dev outbox on this machine in demo mode, or taking it from --code), check GET device/session/, upload the scan's
// files through POST file/upload/, then POST patient/ (unless --patient names one) and POST scan/, each with an
// Idempotency-Key that is sent again, unchanged, when a try fails in transit or with a 5xx. With --exam it uploads
// a cervical or ORCA exam instead (issue 10: POST cervaical/ or POST orca/, each taking one licence).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SCAN_TYPES } from '@sc/shared/constants';
import { EXAM_FILE_FOLDERS } from '@sc/shared/exam-uploads';
import { SCAN_FILE_FOLDERS, type TScanType } from '@sc/shared/scans';
import { IDEMPOTENCY_KEY_HEADER, type TDeviceSession } from '@sc/shared/uploads';

export const DEVICE_USAGE = `Usage: npm run device -- --mobile <number> (--code-from-outbox | --code <code> | --send-code | --token <token>) --serial <serial> [options]

Signs in as a technician's device, uploads the files, a patient and a breast scan, and prints the scan id.

Sign-in
  --url <url>              server (default http://127.0.0.1:$PORT, PORT default 8080)
  --mobile <number>        the technician's mobile (national or +country form)
  --country <ISO>          the mobile's country (default IN)
  --code-from-outbox       read the sign-in code from the dev outbox (demo mode, this machine only)
  --code <code>            the 6-digit code received by SMS (request it first with --send-code)
  --send-code              only send the sign-in code by SMS, then stop
  --token <token>          an existing session token instead of signing in
Scan
  --serial <serial>        the device's serial number (linked to the technician's organization)
  --exam <breast|cervaical|orca>  what to upload (default breast); cervaical and orca take one licence
  --photo <file>           an exam photo or video (repeatable; cervaical needs one; orca: a finding's photo)
  --scan-type <type>       ${SCAN_TYPES.join(' | ')} (default SCAN)
  --report <file.pdf>      a report PDF (repeatable)
  --consent <file>         the consent form, PDF or image (repeatable)
  --assessment <file>      an assessment file (repeatable)
  --left-finding <text>    a left breast finding (repeatable); --right-finding likewise
  --breast-type <1|2|3>    Small, Medium, Large
  --lat <deg> --lng <deg>  where the scan was taken
  --date-time <ISO>        scan time (default now)
  --local-id <id>          the scan's id in the device database (default cli-<time>)
  --software-version <v>   --hardware-version <v>  --sensor-serial <s>  --tablet-serial <s>
  --replay                 is_replay_available
Patient
  --patient <id>           an existing patient of the organization instead of creating one
  --first-name <name>      --last-name <name>  (default Demo Patient)
  --age <years> | --dob <YYYY-MM-DD>   (default age 45)
  --gender <FEMALE|MALE|OTHER>         --patient-mobile <number>
Output
  --json                   print the stored scan as JSON instead of its id
`;

export class UsageError extends Error {}
/** The server refused a step: the message says which and why. */
export class DeviceError extends Error {}

export type DeviceOptions = {
  url: string;
  mobile: string | null;
  country: string;
  code: string | null;
  codeFromOutbox: boolean;
  sendCodeOnly: boolean;
  token: string | null;
  serial: string;
  exam: 'breast' | 'cervaical' | 'orca';
  photos: string[];
  scanType: TScanType;
  reports: string[];
  consents: string[];
  assessments: string[];
  leftFindings: string[];
  rightFindings: string[];
  breastType: 1 | 2 | 3 | null;
  latitude: number | null;
  longitude: number | null;
  dateTime: string;
  localId: string;
  softwareVersion: string | null;
  hardwareVersion: string | null;
  sensorSerial: string | null;
  tabletSerial: string | null;
  replay: boolean;
  patientId: number | null;
  firstName: string;
  lastName: string;
  age: number | null;
  dob: string | null;
  gender: 'FEMALE' | 'MALE' | 'OTHER';
  patientMobile: string | null;
  json: boolean;
};

const number = (raw: string | undefined, name: string): number | null => {
  if (raw === undefined) return null;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number, not "${raw}".`);
  return n;
};

/** Options whose value may begin with '-' (a session token is random base64url: about 1 in 64 begins with one). */
const VALUE_MAY_START_WITH_DASH = new Set(['--token', '--code']);

/**
 * `--token -abc` as `--token=-abc`: parseArgs refuses a separate value that starts with '-' as ambiguous, so a token
 * that happens to start with one would be refused by the command that printed it.
 */
function joinSecretValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    // Whatever follows is the value unless it reads as an option name (then the value is missing, as parseArgs says).
    if (VALUE_MAY_START_WITH_DASH.has(arg) && next !== undefined && !/^--[a-z][a-z-]*$/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Reads the command line (`argv` without node and the script); throws UsageError with what is wrong. */
export function parseDeviceArgs(
  argv: string[],
  env: Record<string, string | undefined> = {},
  now = new Date(),
): DeviceOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: joinSecretValues(argv),
      strict: true,
      options: {
        url: { type: 'string' },
        mobile: { type: 'string' },
        country: { type: 'string', default: 'IN' },
        code: { type: 'string' },
        'code-from-outbox': { type: 'boolean', default: false },
        'send-code': { type: 'boolean', default: false },
        token: { type: 'string' },
        serial: { type: 'string' },
        exam: { type: 'string', default: 'breast' },
        photo: { type: 'string', multiple: true, default: [] },
        'scan-type': { type: 'string', default: 'SCAN' },
        report: { type: 'string', multiple: true, default: [] },
        consent: { type: 'string', multiple: true, default: [] },
        assessment: { type: 'string', multiple: true, default: [] },
        'left-finding': { type: 'string', multiple: true, default: [] },
        'right-finding': { type: 'string', multiple: true, default: [] },
        'breast-type': { type: 'string' },
        lat: { type: 'string' },
        lng: { type: 'string' },
        'date-time': { type: 'string' },
        'local-id': { type: 'string' },
        'software-version': { type: 'string' },
        'hardware-version': { type: 'string' },
        'sensor-serial': { type: 'string' },
        'tablet-serial': { type: 'string' },
        replay: { type: 'boolean', default: false },
        patient: { type: 'string' },
        'first-name': { type: 'string', default: 'Demo' },
        'last-name': { type: 'string', default: 'Patient' },
        age: { type: 'string' },
        dob: { type: 'string' },
        gender: { type: 'string', default: 'FEMALE' },
        'patient-mobile': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) throw new UsageError('');
  const token = values.token ?? null;
  const mobile = values.mobile ?? null;
  if (!token && !mobile) throw new UsageError('--mobile is required (or --token).');
  const ways = [
    values.code !== undefined,
    values['code-from-outbox'],
    values['send-code'],
    token !== null,
  ].filter(Boolean).length;
  if (ways !== 1)
    throw new UsageError('Choose one of --code-from-outbox, --code <code>, --send-code or --token <token>.');
  if (!values['send-code'] && !values.serial) throw new UsageError('--serial is required.');
  const scanType = values['scan-type'].toUpperCase();
  if (!(SCAN_TYPES as readonly string[]).includes(scanType)) {
    throw new UsageError(`--scan-type must be one of ${SCAN_TYPES.join(', ')}.`);
  }
  const exam = values.exam.toLowerCase();
  if (exam !== 'breast' && exam !== 'cervaical' && exam !== 'orca') {
    throw new UsageError('--exam must be breast, cervaical or orca.');
  }
  if (exam === 'cervaical' && values.photo.length === 0 && !values['send-code']) {
    throw new UsageError('--exam cervaical needs at least one --photo.');
  }
  const latitude = number(values.lat, 'lat');
  const longitude = number(values.lng, 'lng');
  if ((latitude === null) !== (longitude === null)) throw new UsageError('--lat and --lng go together.');
  const breastType = number(values['breast-type'], 'breast-type');
  if (breastType !== null && ![1, 2, 3].includes(breastType))
    throw new UsageError('--breast-type must be 1, 2 or 3.');
  const patientId = number(values.patient, 'patient');
  const age = number(values.age, 'age');
  const gender = values.gender.toUpperCase();
  if (!['FEMALE', 'MALE', 'OTHER'].includes(gender))
    throw new UsageError('--gender must be FEMALE, MALE or OTHER.');
  const dateTime = values['date-time'] ?? now.toISOString();
  if (Number.isNaN(Date.parse(dateTime)))
    throw new UsageError(`--date-time must be an ISO 8601 time, not "${dateTime}".`);
  return {
    url: (values.url ?? `http://127.0.0.1:${env.PORT || '8080'}`).replace(/\/+$/, ''),
    mobile,
    country: values.country.toUpperCase(),
    code: values.code ?? null,
    codeFromOutbox: values['code-from-outbox'],
    sendCodeOnly: values['send-code'],
    token,
    serial: values.serial ?? '',
    exam,
    photos: values.photo,
    scanType: scanType as TScanType,
    reports: values.report,
    consents: values.consent,
    assessments: values.assessment,
    leftFindings: values['left-finding'],
    rightFindings: values['right-finding'],
    breastType: breastType as 1 | 2 | 3 | null,
    latitude,
    longitude,
    dateTime: new Date(dateTime).toISOString(),
    localId: values['local-id'] ?? `cli-${now.getTime()}`,
    softwareVersion: values['software-version'] ?? null,
    hardwareVersion: values['hardware-version'] ?? null,
    sensorSerial: values['sensor-serial'] ?? null,
    tabletSerial: values['tablet-serial'] ?? null,
    replay: values.replay,
    patientId,
    firstName: values['first-name'],
    lastName: values['last-name'],
    age: age ?? (values.dob ? null : 45),
    dob: values.dob ?? null,
    gender: gender as DeviceOptions['gender'],
    patientMobile: values['patient-mobile'] ?? null,
    json: values.json,
  };
}

type Answer = { status: number; body: unknown; headers: Headers };

export type DeviceIo = {
  fetch: typeof fetch;
  /** Progress lines (the command writes them to stderr; stdout carries only the result). */
  log: (line: string) => void;
  readFile: (file: string) => Promise<Buffer>;
  /** Pause between retries (tests pass a no-op). */
  sleep: (ms: number) => Promise<void>;
};

export const defaultIo = (): DeviceIo => ({
  fetch: globalThis.fetch,
  log: (line) => process.stderr.write(`${line}\n`),
  readFile: (file) => fs.readFile(file),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/** The API's error body in one line: '{detail}' or 'field: message; …'. */
export function describeError(body: unknown): string {
  if (body && typeof body === 'object') {
    const entries = Object.entries(body);
    if (entries.length === 1 && entries[0]?.[0] === 'detail') return String(entries[0][1]);
    return entries.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : JSON.stringify(v)}`).join('; ');
  }
  return String(body);
}

const RETRIES = 3;

export async function runDevice(
  opts: DeviceOptions,
  io: DeviceIo = defaultIo(),
): Promise<{ scanId: number | null; scan: unknown }> {
  const api = `${opts.url}/api/v1`;

  /** One call; a transport failure or a 5xx is tried again (with the same Idempotency-Key when there is one). */
  async function call(
    method: string,
    route: string,
    init: { token?: string; json?: unknown; form?: FormData; key?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Token ${init.token}`;
    if (init.key) headers[IDEMPOTENCY_KEY_HEADER] = init.key;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    let lastError = '';
    for (let attempt = 1; attempt <= RETRIES; attempt++) {
      try {
        const res = await io.fetch(`${api}${route}`, {
          method,
          headers,
          body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
        });
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        if (res.status < 500 || attempt === RETRIES)
          return { status: res.status, body, headers: res.headers };
        lastError = `${res.status} ${describeError(body)}`;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        if (attempt === RETRIES)
          throw new DeviceError(`${method} ${route}: ${lastError} (is the server running at ${opts.url}?)`);
      }
      io.log(
        `  ${method} ${route} failed (${lastError}); trying again${init.key ? ' with the same Idempotency-Key' : ''}…`,
      );
      await io.sleep(500 * attempt);
    }
    throw new DeviceError(`${method} ${route}: ${lastError}`);
  }

  const expect = (answer: Answer, ok: number[], step: string): Record<string, unknown> => {
    if (!ok.includes(answer.status))
      throw new DeviceError(`${step} refused (${answer.status}): ${describeError(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };

  // ---- sign in ----
  let token = opts.token;
  if (!token) {
    const mobile = { mobile: opts.mobile, mobile_country_code: opts.country };
    if (opts.code === null) {
      expect(await call('POST', '/auth/otp/', { json: mobile }), [200], 'Sending the sign-in code');
      io.log(`Sign-in code sent to ${opts.mobile}.`);
      if (opts.sendCodeOnly) return { scanId: null, scan: null };
    }
    let code = opts.code;
    if (opts.codeFromOutbox) {
      const query = new URLSearchParams({ to: opts.mobile ?? '', country: opts.country, limit: '5' });
      const outbox = await call('GET', `/dev/outbox/?${query.toString()}`);
      if (outbox.status === 404) {
        throw new DeviceError(
          'The dev outbox is not available (the server is not in demo mode, or not on this machine): pass --code.',
        );
      }
      const messages = expect(outbox, [200], 'Reading the dev outbox') as unknown as Array<{
        channel: string;
        code: string | null;
      }>;
      code = messages.find((m) => m.channel === 'sms' && m.code)?.code ?? null;
      if (!code) throw new DeviceError(`No sign-in code for ${opts.mobile} in the dev outbox.`);
    }
    const verified = expect(
      await call('POST', '/auth/otp/verify/', { json: { ...mobile, code } }),
      [200],
      'Checking the sign-in code',
    );
    const login = expect(
      await call('POST', '/user/login/', {
        json: { id_token: verified.id_token, source: 'IBE_APP', is_login: true },
      }),
      [200],
      'Signing in',
    );
    token = String(login.token);
    io.log(`Signed in as user ${String(login.id)}.`);
  }

  // ---- may this device upload? ----
  const session = expect(
    await call('GET', `/device/session/?serial_number=${encodeURIComponent(opts.serial)}`, { token }),
    [200],
    'Reading the device session',
  ) as unknown as TDeviceSession;
  if (!session.can_upload)
    throw new DeviceError(session.upload_refusal ?? 'This user may not upload from this device.');
  // Certification is the breast (IBE) app's: cervical and ORCA exams are not scan types.
  if (opts.exam === 'breast' && !session.allowed_scan_types.includes(opts.scanType)) {
    throw new DeviceError(
      `${session.first_name} ${session.last_name} may upload ${session.allowed_scan_types.join(', ')} scans only (not certified).`,
    );
  }
  if (session.pin_reset_request) io.log('Note: an administrator asked this user to choose a new PIN.');

  // ---- files ----
  const uploadAll = async (files: string[], folder: string): Promise<Array<{ path: string }>> => {
    const out: Array<{ path: string }> = [];
    for (const file of files) {
      let data: Buffer;
      try {
        data = await io.readFile(file);
      } catch (error) {
        throw new DeviceError(
          `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const form = new FormData();
      form.append('folder', folder);
      form.append('file', new Blob([new Uint8Array(data)]), path.basename(file));
      const stored = expect(await call('POST', '/file/upload/', { token, form }), [200], `Uploading ${file}`);
      io.log(`Uploaded ${file} → ${String(stored.path)}`);
      out.push({ path: String(stored.path) });
    }
    return out;
  };
  const scanFiles = {
    reports: await uploadAll(opts.reports, SCAN_FILE_FOLDERS.reports),
    consent_form: await uploadAll(opts.consents, SCAN_FILE_FOLDERS.consent_form),
    assessment_files: await uploadAll(opts.assessments, SCAN_FILE_FOLDERS.assessment_files),
  };

  // ---- patient ----
  let patientId = opts.patientId;
  if (patientId === null) {
    const key = randomUUID();
    const patient = expect(
      await call('POST', '/patient/', {
        token,
        key,
        json: {
          first_name: opts.firstName,
          last_name: opts.lastName,
          ...(opts.dob ? { date_of_birth: opts.dob } : { age: opts.age }),
          gender: opts.gender,
          ...(opts.patientMobile ? { mobile: opts.patientMobile, mobile_country_code: opts.country } : {}),
          device_serial_number: opts.serial,
          local_db_id: `${opts.localId}-patient`,
          date_time: opts.dateTime,
        },
      }),
      [201],
      'Creating the patient',
    );
    patientId = Number(patient.id);
    io.log(`Patient ${patientId} created (Idempotency-Key ${key}).`);
  }

  if (opts.exam !== 'breast') {
    const photos = await uploadAll(opts.photos, EXAM_FILE_FOLDERS.documents);
    const key = randomUUID();
    const route = opts.exam === 'cervaical' ? '/cervaical/' : '/orca/';
    const common = {
      patient: patientId,
      device_serial_number: opts.serial,
      local_db_id: opts.localId,
      date_time: opts.dateTime,
      latitude: opts.latitude,
      longitude: opts.longitude,
      software_version: opts.softwareVersion,
      hardware_version: opts.hardwareVersion,
      sensor_serial_number: opts.sensorSerial,
      tablet_serial_number: opts.tabletSerial,
      file_path: { reports: scanFiles.reports, consent_form: scanFiles.consent_form },
    };
    const body =
      opts.exam === 'cervaical'
        ? {
            ...common,
            documents: photos.map((p) => ({
              path: p.path,
              document_type: p.path.endsWith('.mp4') ? 'VIDEO' : 'IMAGE',
            })),
          }
        : {
            ...common,
            findings: photos.map((p, index) => ({
              exam: 'intra_oral_exam',
              part: 'Oral cavity',
              index,
              path: p.path,
            })),
          };
    const answer = await call('POST', route, { token, key, json: body });
    const stored = expect(
      answer,
      [200, 201],
      `Uploading the ${opts.exam === 'orca' ? 'ORCA' : 'cervical'} exam`,
    );
    io.log(
      `Exam ${String(stored.id)} (${answer.status}): ${String(stored.detail)} ${String(stored.licenses_left)} licenses left (Idempotency-Key ${key})`,
    );
    return { scanId: Number(stored.id), scan: stored };
  }

  // ---- scan ----
  const key = randomUUID();
  const answer = await call('POST', '/scan/', {
    token,
    key,
    json: {
      patient: patientId,
      device_serial_number: opts.serial,
      local_db_id: opts.localId,
      scan_type: opts.scanType,
      date_time: opts.dateTime,
      breast_type: opts.breastType,
      left_breast_finding: opts.leftFindings,
      right_breast_finding: opts.rightFindings,
      latitude: opts.latitude,
      longitude: opts.longitude,
      software_version: opts.softwareVersion,
      hardware_version: opts.hardwareVersion,
      sensor_serial_number: opts.sensorSerial,
      tablet_serial_number: opts.tabletSerial,
      is_replay_available: opts.replay,
      scan_files_path: scanFiles,
    },
  });
  const scan = expect(answer, [200, 201], 'Uploading the scan');
  io.log(`Scan ${String(scan.id)} (${answer.status}): ${String(scan.detail)} (Idempotency-Key ${key})`);
  return { scanId: Number(scan.id), scan };
}
