// Journeys of issue 8 (breast scans in the console): the list and its filter from a dashboard-style `/scan?device=`
// link, the scan view with the embedded report, the replay, a transfer, the map with a cluster click and the CSV
// download (header and rows against the list's count); axe on each screen; every role at desktop and phone width.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { SCAN_CSV_COLUMNS, SCAN_CSV_FILENAME, SCAN_MESSAGES_CONSOLE } from '@sc/shared/scans';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, pickOption, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type ScanRow = {
  id: number;
  display_id: string;
  device_serial_number: string | null;
  organization: number | null;
  technician_data: { id: number } | null;
  scan_files_path: { reports: { path: string }[] };
  is_replay_available: boolean;
};
type Org = { id: number; name: string };
type OrgUser = { id: number; first_name: string; last_name: string; username: string };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('scans', () => {
  it('lists scans, filters by the device of a /scan?device= link and downloads exactly those rows as CSV (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/scan');
    await page.getByTestId('list-total').waitFor();
    const all = await apiAs<Paged<ScanRow>>(page, 'scan/?limit=1');
    await page.getByTestId('list-total').getByText(`${all.count} items`).waitFor();
    await checkA11y(page, 'scan list');

    const serial = all.results[0]?.device_serial_number;
    if (!serial) throw new Error('the demo scans need a device serial number');
    const byDevice = await apiAs<Paged<ScanRow>>(page, `scan/?device=${encodeURIComponent(serial)}&limit=100`);
    expect(byDevice.count).toBeGreaterThan(0);
    expect(byDevice.count).toBeLessThan(all.count);

    await page.goto(`/scan?device=${encodeURIComponent(serial)}&limit=100`);
    await page.getByTestId('list-total').getByText(`${byDevice.count} items`).waitFor();
    expect(await page.getByTestId('scan-filter-count').textContent()).toContain('1');
    // The Serial Number column by its header: at this width some columns give way (issue 23.12).
    const serialColumn = (await page.getByTestId('scan-table').locator('thead th').allTextContents()).indexOf('Serial Number') + 1;
    expect(serialColumn).toBeGreaterThan(0);
    const serials = await page
      .getByTestId('scan-table')
      .locator(`tbody tr td:nth-child(${serialColumn})`)
      .allTextContents();
    expect(new Set(serials)).toEqual(new Set([serial]));

    await page.getByTestId('scan-filter-button').click();
    await page.getByTestId('scan-filter-panel').waitFor();
    await checkA11y(page, 'scan filter panel');
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('scan-csv').click()]);
    // The server's name, with the period or the day of the download (issue 23.14).
    const base = SCAN_CSV_FILENAME.replace('.csv', '');
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${base}_[-_0-9a-z]+\\.csv$`));
    const lines = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\n');
    // Date Time names the browser's zone.
    expect(lines[0]?.replace(/ \([A-Za-z_/+-]+\)/g, '')).toBe(SCAN_CSV_COLUMNS.join(','));
    expect(lines.length - 1).toBe(byDevice.count);

    await page.goto('/scan?survivor=yes&symptoms=yes&history=yes&positive=yes&search=zzzzzz');
    await page.getByText(SCAN_MESSAGES_CONSOLE.emptyFiltered).waitFor();
    await context.close();
  });

  it('opens a scan with its embedded report, replays it and transfers it (SUB_ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'subadmin@demo.test');
    const scans = await apiAs<Paged<ScanRow>>(page, 'scan/?is_replay_available=true&scan_type=SCAN&limit=20');
    const scan = scans.results.find((s) => s.scan_files_path.reports.length > 0 && s.organization !== null);
    if (!scan) throw new Error('the demo data needs a scan with a report and a replay');

    await page.goto(`/scan?search=${encodeURIComponent(scan.display_id)}`);
    await page.getByTestId(`scan-id-${scan.id}`).click();
    const dialog = page.getByTestId('scan-view-dialog');
    await dialog.getByTestId('scan-device-table').waitFor();
    await dialog.getByTestId('scan-patient-table').waitFor();
    await checkA11y(page, 'scan detail');
    await dialog.getByRole('tab', { name: 'Report' }).click();
    const frame = dialog.getByTestId('scan-file-frame').first();
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    await snap(page, 'scans-report-1400');
    await checkA11y(page, 'scan report');
    await page.keyboard.press('Escape');

    // Scan replay opens a new tab on /chart/?id=.
    await page.getByRole('button', { name: `Actions for ${scan.display_id}` }).click();
    const [replay] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Scan replay' }).click()]);
    await replay.waitForLoadState();
    expect(new URL(replay.url()).pathname + new URL(replay.url()).search).toBe(`/chart/?id=${scan.id}`);
    await replay.getByTestId('replay-canvas-left').waitFor();
    await replay.getByTestId('replay-play').click();
    await eventually(async () => !(await replay.getByTestId('replay-position').textContent())?.startsWith('Frame 1 of'));
    await replay.getByTestId('replay-pause').click();
    await checkA11y(replay, 'scan replay');
    await snap(replay, 'scans-replay-1400');
    await replay.close();

    // Transfer to a technician of another organization.
    const orgs = await apiAs<Paged<Org>>(page, 'organization/?limit=50&ordering=name');
    let target: { org: Org; tech: OrgUser } | null = null;
    for (const org of orgs.results) {
      if (org.id === scan.organization) continue;
      const techs = await apiAs<Paged<OrgUser>>(page, `organization/user/?organization_id=${org.id}&user_type=TECHNICIAN&is_valid=true&limit=1`);
      const tech = techs.results[0];
      if (tech) {
        target = { org, tech };
        break;
      }
    }
    if (!target) throw new Error('the demo data needs a technician in another organization');
    await page.getByRole('button', { name: `Actions for ${scan.display_id}` }).click();
    await page.getByRole('menuitem', { name: 'Transfer' }).click();
    const submit = page.getByTestId('scan-transfer-submit');
    expect(await submit.isDisabled()).toBe(true);
    await pickOption(page, 'scan-transfer-organization', target.org.name, new RegExp(`^${escape(target.org.name)}`));
    expect(await submit.isDisabled()).toBe(true);
    await pickOption(page, 'scan-transfer-technician', target.tech.first_name, new RegExp(escape(target.tech.username)));
    await checkA11y(page, 'scan transfer');
    await submit.click();
    await page.getByText(SCAN_MESSAGES_CONSOLE.transferred).first().waitFor();
    const moved = await apiAs<ScanRow>(page, `scan/${scan.id}/`);
    expect(moved.organization).toBe(target.org.id);
    expect(moved.technician_data?.id).toBe(target.tech.id);
    await context.close();
  });

  it('shows the scans on the map and a cluster click lists its scans (MANAGER)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'manager@demo.test');
    await page.goto('/mapreport');
    await page.getByTestId('scan-map-total').waitFor();
    const cluster = page.locator('.leaflet-marker-icon').filter({ hasText: /\d/ }).first();
    await cluster.waitFor();
    const count = Number((await cluster.textContent())?.trim());
    await checkA11y(page, 'scan map');
    await snap(page, 'scans-map-1400');
    await cluster.click();
    const modal = page.getByTestId('scan-list-modal-ids');
    await modal.getByTestId('list-total').waitFor();
    if (Number.isFinite(count)) await modal.getByTestId('list-total').getByText(`${count} items`).waitFor();
    await checkA11y(page, 'scan cluster list');
    await snap(page, 'scans-cluster-1400');
    await context.close();
  });

  it('shows the scan screens to each role at desktop and phone width', async () => {
    for (const role of ['admin', 'subadmin', 'distributor', 'manager', 'orgadmin'] as const) {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, `${role}@demo.test`);
        if (role === 'orgadmin') {
          // ORG_ADMIN has no Scans menu: its organization page's Breast Scans tab.
          const me = await apiAs<{ organization: number }>(page, 'user/');
          await page.goto(`/organization/${me.organization}?tab=scans`);
        } else {
          await page.goto('/scan');
        }
        await page.getByTestId('list-total').waitFor();
        const hasOrgColumn = (await page.locator('thead th').allTextContents()).includes('Organization');
        expect(hasOrgColumn).toBe(width > 600 && role !== 'orgadmin');
        await snap(page, `scans-${role}-${width}`);
        await page.getByTestId('scan-view-toggle').getByText('Map').click();
        await page.getByTestId('scan-map-total').waitFor();
        await snap(page, `scans-map-${role}-${width}`);
        await context.close();
      }
    }
  }, 300_000);
});
