// Journey of issue 8 (device uploads): a technician's device uploads a scan with a report PDF through the device
// command (`npm run device -- …`) against the e2e server; an ADMIN finds it in the scan list by the patient's name
// and opens its detail and the embedded report, which is the uploaded file; the ORG_ADMIN of the clinic finds it in
// its organization's Breast Scans tab on a phone. Waits for conditions only (no fixed sleeps).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { scanIdLabel } from '@sc/shared/scans';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type UploadedScan = { id: number; device_serial_number: string | null; organization: number | null };

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-e2e-device-'));
});

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A real one-page PDF (pdfkit, as the server's reports) naming the upload, written to `file`. */
async function writeReport(file: string, text: string): Promise<void> {
  const doc = new PDFDocument({ size: 'A4' });
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  doc.fontSize(18).text(text);
  doc.end();
  await done;
}

async function apiWithToken<T>(token: string, urlPath: string): Promise<T> {
  const r = await fetch(`${baseUrl()}/api/v1/${urlPath}`, { headers: { Authorization: `Token ${token}` } });
  if (!r.ok) throw new Error(`${urlPath} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** The bytes of a stored file as the console's frame fetches them (`GET file/?path=` with the token). */
async function storedFile(token: string, filePath: string): Promise<Buffer> {
  const r = await fetch(`${baseUrl()}/api/v1/file/?path=${encodeURIComponent(filePath)}`, { headers: { Authorization: `Token ${token}` } });
  if (!r.ok) throw new Error(`file ${filePath} answered ${r.status}`);
  return Buffer.from(await r.arrayBuffer());
}

describe('device upload', () => {
  it('uploads a scan with the device command, finds it in the list and opens its detail with the embedded report', async () => {
    const stamp = Date.now().toString(36);
    const lastName = `Upload${stamp}`;
    const reportFile = path.join(dir, `report-${stamp}.pdf`);
    await writeReport(reportFile, `Device report ${stamp}`);
    const uploaded = fs.readFileSync(reportFile);

    // A device linked to the demo clinic of technician@demo.test (its ORG_ADMIN's devices).
    const orgAdminToken = await tokenFor('orgadmin@demo.test');
    const devices = await apiWithToken<Paged<{ serial_number: string }>>(orgAdminToken, 'device/?limit=1&ordering=serial_number');
    const serial = devices.results[0]?.serial_number;
    if (!serial) throw new Error('the demo clinic needs a linked device');

    // The device command, as a technician's device would run it; --json prints the stored scan.
    const { stdout } = await run(
      'npm',
      [
        'run', '--silent', 'device', '--',
        '--url', baseUrl(),
        '--token', await tokenFor('technician@demo.test'),
        '--serial', serial,
        '--scan-type', 'SCAN',
        '--report', reportFile,
        '--first-name', 'Device',
        '--last-name', lastName,
        '--left-finding', 'Lump at 2 o\'clock',
        '--lat', '12.9716', '--lng', '77.5946',
        '--local-id', `e2e-${stamp}`,
        '--json',
      ],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    const scan = JSON.parse(stdout.slice(stdout.indexOf('{'))) as UploadedScan;
    expect(scan.device_serial_number).toBe(serial);

    // ADMIN: the Scans list, searched by the patient's name, shows the new scan; its ID opens the detail.
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/scan');
    await page.getByTestId('list-total').waitFor();
    await page.getByTestId('list-search').fill(lastName);
    const idCell = page.getByTestId(`scan-id-${scan.id}`);
    await idCell.waitFor();
    await page.getByTestId('list-total').getByText(/^1 items?$/).waitFor();
    expect(await idCell.textContent()).toContain(scanIdLabel('SCAN', scan.id));
    await snap(page, 'device-upload-list-1400');

    await idCell.click();
    const dialog = page.getByTestId('scan-view-dialog');
    const deviceTable = dialog.getByTestId('scan-device-table');
    await deviceTable.getByText(serial).first().waitFor();
    await dialog.getByTestId('scan-patient-table').getByText(lastName).first().waitFor();
    await checkA11y(page, 'uploaded scan detail');

    await dialog.getByRole('tab', { name: 'Report' }).click();
    const frame = dialog.getByTestId('scan-file-frame').first();
    await frame.waitFor();
    const src = await frame.getAttribute('src');
    expect(src).toMatch(/^blob:/);
    // The report the frame shows is the file the device uploaded, byte for byte.
    const detail = await apiAs<{ scan_files_path: { reports: { path: string }[] } }>(page, `scan/${scan.id}/`);
    expect(detail.scan_files_path.reports).toHaveLength(1);
    const token = await page.evaluate(() => localStorage.getItem('dashboard_token'));
    expect((await storedFile(token!, detail.scan_files_path.reports[0]!.path)).equals(uploaded)).toBe(true);
    await snap(page, 'device-upload-report-1400');
    await checkA11y(page, 'uploaded scan report');
    await context.close();

    // ORG_ADMIN of the clinic, on a phone: its organization's Breast Scans tab lists the scan too.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await signInByEmail(phone.page, 'orgadmin@demo.test');
    const me = await apiAs<{ organization: number }>(phone.page, 'user/');
    expect(scan.organization).toBe(me.organization);
    await phone.page.goto(`/organization/${me.organization}?tab=scans`);
    await phone.page.getByTestId('list-total').waitFor();
    await phone.page.getByTestId('list-search').fill(lastName);
    await phone.page.getByTestId(`scan-id-${scan.id}`).waitFor();
    await phone.page.getByTestId('list-total').getByText(/^1 items?$/).waitFor();
    await snap(phone.page, 'device-upload-list-390');
    await phone.context.close();
  }, 240_000);
});
