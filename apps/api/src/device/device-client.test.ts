// `npm run device`: its argument parsing, and whole runs against a listening test server (sign-in with the code
// from the dev outbox, files, patient, scan), including the refusals it reports.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@sc/shared/uploads';
import {
  cervicalExams,
  files,
  licences,
  orcaExams,
  orcaFindings,
  patients,
  scans,
  users,
} from '../db/schema/index.ts';
import { LICENCE_MESSAGES } from '@sc/shared/licences';
import { setupTestApp } from '../test/app.ts';
import { createUser, signIn, uniqueMobile } from '../test/factories.ts';
import { PDF, PNG, createDevice, setupUploader } from '../modules/uploads/uploads.fixtures.ts';
import {
  DeviceError,
  UsageError,
  describeError,
  parseDeviceArgs,
  runDevice,
  type DeviceIo,
} from './device-client.ts';

const t = await setupTestApp({ RATE_LIMIT_DISABLED: 'true' });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const { db } = t.database;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-device-'));
const reportFile = path.join(dir, 'report.pdf');
const consentFile = path.join(dir, 'consent.png');
fs.writeFileSync(reportFile, PDF);
fs.writeFileSync(consentFile, PNG);

const quietIo = (lines: string[] = []): DeviceIo => ({
  fetch: globalThis.fetch,
  log: (line) => lines.push(line),
  readFile: (file) => fs.promises.readFile(file),
  sleep: async () => undefined,
});

/** A certified technician with a mobile, in an organization with a linked device. */
async function technicianWithDevice(opts: { certified?: boolean } = {}) {
  const setup = await setupUploader(t, { certified: opts.certified });
  const mobile = uniqueMobile();
  const [user] = await db
    .update(users)
    .set({ mobile: `+91-${mobile}`, mobileCountryCode: 'IN' })
    .where(eq(users.id, setup.user.id))
    .returning();
  return { ...setup, user: user!, mobile };
}

describe('parseDeviceArgs', () => {
  it('takes a token or code that begins with a dash (a random base64url token may)', () => {
    const options = parseDeviceArgs(['--url', 'http://127.0.0.1:9', '--token', '-Ab_c-1', '--serial', 'X']);
    expect(options).toMatchObject({ token: '-Ab_c-1' });
    // A missing value still reads as one: the next word is an option.
    expect(() => parseDeviceArgs(['--token', '--serial', 'X'])).toThrow(UsageError);
  });

  const base = ['--mobile', '9876500001', '--code-from-outbox', '--serial', 'IBE-1'];
  const now = new Date('2026-03-01T10:00:00.000Z');

  it('reads a full command line, with defaults for the rest', () => {
    const o = parseDeviceArgs(
      [
        ...base,
        '--scan-type',
        'practice',
        '--report',
        'a.pdf',
        '--report',
        'b.pdf',
        '--left-finding',
        'mass',
        '--lat',
        '18.5',
        '--lng',
        '73.8',
      ],
      { PORT: '9090' },
      now,
    );
    expect(o).toMatchObject({
      url: 'http://127.0.0.1:9090',
      mobile: '9876500001',
      country: 'IN',
      codeFromOutbox: true,
      serial: 'IBE-1',
      scanType: 'PRACTICE',
      reports: ['a.pdf', 'b.pdf'],
      leftFindings: ['mass'],
      latitude: 18.5,
      longitude: 73.8,
      dateTime: '2026-03-01T10:00:00.000Z',
      localId: `cli-${now.getTime()}`,
      age: 45,
      gender: 'FEMALE',
      patientId: null,
    });
  });

  it.each([
    [[], '--mobile is required (or --token).'],
    [
      ['--mobile', '1', '--serial', 'X'],
      'Choose one of --code-from-outbox, --code <code>, --send-code or --token <token>.',
    ],
    [
      ['--mobile', '1', '--code', '123456', '--code-from-outbox', '--serial', 'X'],
      'Choose one of --code-from-outbox, --code <code>, --send-code or --token <token>.',
    ],
    [['--mobile', '1', '--code-from-outbox'], '--serial is required.'],
    [[...base, '--scan-type', 'XRAY'], '--scan-type must be one of PRACTICE, TRAINING, SCAN, PRE_TRAINING.'],
    [[...base, '--lat', '10'], '--lat and --lng go together.'],
    [[...base, '--lat', 'north', '--lng', '2'], '--lat must be a number, not "north".'],
    [[...base, '--breast-type', '4'], '--breast-type must be 1, 2 or 3.'],
    [[...base, '--gender', 'X'], '--gender must be FEMALE, MALE or OTHER.'],
    [[...base, '--date-time', 'soon'], '--date-time must be an ISO 8601 time, not "soon".'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseDeviceArgs(argv, {}, now)).toThrow(new UsageError(message));
  });

  it('refuses an unknown option', () => {
    expect(() => parseDeviceArgs([...base, '--colour', 'red'])).toThrow(UsageError);
  });

  it('describes API errors in one line', () => {
    expect(describeError({ detail: 'No.' })).toBe('No.');
    expect(describeError({ mobile: ['Please enter a valid Phone Number.'], age: ['Too old.'] })).toBe(
      'mobile: Please enter a valid Phone Number.; age: Too old.',
    );
  });
});

describe('runDevice against a running server', () => {
  it('signs in with the code from the dev outbox, uploads the files, a patient and the scan, and answers its id', async () => {
    const s = await technicianWithDevice();
    const lines: string[] = [];
    const options = parseDeviceArgs([
      '--url',
      url,
      '--mobile',
      s.mobile,
      '--code-from-outbox',
      '--serial',
      s.device.serialNumber,
      '--scan-type',
      'SCAN',
      '--report',
      reportFile,
      '--consent',
      consentFile,
      '--left-finding',
      'mass',
      '--lat',
      '18.52',
      '--lng',
      '73.85',
      '--software-version',
      'v2.14',
    ]);
    const { scanId } = await runDevice(options, quietIo(lines));
    expect(scanId).toEqual(expect.any(Number));
    const [scan] = await db.select().from(scans).where(eq(scans.id, scanId!));
    expect(scan).toMatchObject({
      technicianId: s.user.id,
      organizationId: s.org.id,
      deviceSerialNumber: s.device.serialNumber,
      scanType: 'SCAN',
      leftBreastFinding: ['mass'],
      isPositive: true,
      latitude: 18.52,
    });
    expect(scan?.scanFilesPath.reports).toHaveLength(1);
    expect(scan?.scanFilesPath.consent_form).toHaveLength(1);
    const [report] = await db
      .select()
      .from(files)
      .where(eq(files.path, scan!.scanFilesPath.reports![0]!.path));
    expect(report).toMatchObject({
      folder: 'reports',
      userId: s.user.id,
      organizationId: s.org.id,
      contentType: 'application/pdf',
    });
    const [patient] = await db.select().from(patients).where(eq(patients.id, scan!.patientId!));
    expect(patient).toMatchObject({
      firstName: 'Demo',
      lastName: 'Patient',
      age: 45,
      technicianId: s.user.id,
      localDbId: `${options.localId}-patient`,
    });
    expect(lines.some((l) => l.startsWith(`Scan ${scanId} (201)`))).toBe(true);
  });

  it('uses an existing session token and patient, and reports a refusal in words', async () => {
    const s = await technicianWithDevice({ certified: false });
    const token = await signIn(t, s.user);
    const first = await runDevice(
      parseDeviceArgs([
        '--url',
        url,
        '--token',
        token,
        '--serial',
        s.device.serialNumber,
        '--scan-type',
        'TRAINING',
      ]),
      quietIo(),
    );
    const [stored] = await db.select().from(scans).where(eq(scans.id, first.scanId!));
    await expect(
      runDevice(
        parseDeviceArgs([
          '--url',
          url,
          '--token',
          token,
          '--serial',
          s.device.serialNumber,
          '--patient',
          String(stored!.patientId),
        ]),
        quietIo(),
      ),
    ).rejects.toThrow(
      new DeviceError(
        `${s.user.firstName} ${s.user.lastName} may upload PRE_TRAINING, TRAINING, PRACTICE scans only (not certified).`,
      ),
    );
    const elsewhere = await createDevice(t, null);
    await expect(
      runDevice(
        parseDeviceArgs([
          '--url',
          url,
          '--token',
          token,
          '--serial',
          elsewhere.serialNumber,
          '--scan-type',
          'TRAINING',
        ]),
        quietIo(),
      ),
    ).rejects.toThrow(new DeviceError(UPLOAD_MESSAGES.deviceNotLinked(elsewhere.serialNumber)));
  });

  it('uploads an ORCA exam with --exam orca, taking one licence, and reports a cervical exam refused without one', async () => {
    const s = await technicianWithDevice({ certified: false });
    const token = await signIn(t, s.user);
    const [licence] = await db
      .insert(licences)
      .values({
        organizationId: s.org.id,
        application: 'ORCA',
        licenseCode: `CLI-${s.org.id}`,
        pin: '111111',
        count: 2,
        totalLicenseCount: 100,
      })
      .returning();
    const base = ['--url', url, '--token', token, '--serial', s.device.serialNumber, '--report', reportFile];
    const lines: string[] = [];
    const { scanId } = await runDevice(
      parseDeviceArgs([...base, '--exam', 'orca', '--photo', consentFile]),
      quietIo(lines),
    );
    const [exam] = await db.select().from(orcaExams).where(eq(orcaExams.id, scanId!));
    expect(exam).toMatchObject({ technicianId: s.user.id, licenseId: licence!.id, currentReportCount: 99 });
    expect(await db.select().from(orcaFindings).where(eq(orcaFindings.examId, scanId!))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith(`Exam ${scanId} (201)`) && l.includes('1 licenses left'))).toBe(
      true,
    );

    await expect(
      runDevice(parseDeviceArgs([...base, '--exam', 'cervaical', '--photo', consentFile]), quietIo()),
    ).rejects.toThrow(
      new DeviceError(`Uploading the cervical exam refused (403): ${LICENCE_MESSAGES.noneLeft('CERVAICAL')}`),
    );
    expect(
      await db
        .select()
        .from(cervicalExams)
        .where(eq(cervicalExams.deviceSerialNumber, s.device.serialNumber)),
    ).toHaveLength(0);
    expect(() => parseDeviceArgs([...base, '--exam', 'cervaical'])).toThrow(
      new UsageError('--exam cervaical needs at least one --photo.'),
    );
    expect(() => parseDeviceArgs([...base, '--exam', 'xray'])).toThrow(
      new UsageError('--exam must be breast, cervaical or orca.'),
    );
  });

  it('says when the server cannot be reached', async () => {
    const s = await technicianWithDevice();
    const token = await signIn(
      t,
      await createUser(t, { userType: 'TECHNICIAN', organizationId: s.org.id, password: null }),
    );
    await expect(
      runDevice(
        parseDeviceArgs(['--url', 'http://127.0.0.1:9', '--token', token, '--serial', 'X']),
        quietIo(),
      ),
    ).rejects.toThrow(/is the server running at http:\/\/127\.0\.0\.1:9\?/);
  });
});
