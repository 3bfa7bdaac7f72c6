// Journeys of issue 9 (dashboard): ADMIN sees the tiles, chart, leaderboard (and downloads leaderboard.csv), By Device
// and By Technician; ORG_ADMIN sees its own figures without the leaderboard, and a tile changes within seconds of a
// scan uploaded through the device API, without a reload. Screens at desktop and phone width, checked by axe.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LEADERBOARD_CSV_COLUMNS, type TDashboardStats } from '@sc/shared/dashboard';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Device = { serial_number: string };

const root = path.resolve(import.meta.dirname, '..');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const count = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

describe('dashboard', () => {
  it('shows an ADMIN the tiles, chart, leaderboard with its CSV, By Device and By Technician', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/dashboard');
    const stats = await apiAs<TDashboardStats>(page, 'scan/dashboard/');
    await eventually(async () => count(await page.getByTestId('tile-scans-value').textContent()) === stats.scans_in_data_range_count);
    expect(await page.getByTestId('tile-positivity-value').textContent()).toBe(`${stats.positivity_rate_in_data_range_count.toFixed(1)}%`);
    await page.getByTestId('leaderboard-table').locator('tbody tr').first().waitFor();
    await page.getByTestId('device-stats-table').locator('tbody tr').first().waitFor();
    await page.getByTestId('technician-stats-table').locator('tbody tr').first().waitFor();
    await checkA11y(page, 'dashboard ADMIN');
    await snap(page, 'dashboard-admin-1400');

    const leaders = await apiAs<Paged<unknown>>(page, 'organization/leaderboard/');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('leaderboard-csv').click()]);
    // The server's name, with the period (issue 23.14).
    expect(download.suggestedFilename()).toMatch(/^leaderboard_[-_0-9]+\.csv$/);
    const file = fs.readFileSync((await download.path())!, 'utf8').trim().split('\n');
    // The time column names the browser's zone.
    expect(file[0]?.replace(/ \([A-Za-z_/+-]+\)/g, '')).toBe(LEADERBOARD_CSV_COLUMNS.join(','));
    expect(file).toHaveLength(leaders.count + 1);

    await page.getByTestId('period-tab-30').click();
    await page.waitForURL(/period=30/);
    // A device row opens the scan list of that device.
    const firstDevice = page.getByTestId('device-stats-table').locator('tbody tr').first();
    await firstDevice.click();
    // With the statistics' type (issue 23.13), so the list shows the row's count.
    await page.waitForURL(/\/scan\?scan_type=SCAN&.*device=/);
    await context.close();
  });

  it('shows an ORG_ADMIN its figures without the leaderboard, and a tile changes after a scan is uploaded', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    await page.goto('/dashboard');
    const tile = page.getByTestId('tile-scans-value');
    await page.getByTestId('device-stats-table').locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('dashboard-leaderboard').count()).toBe(0);
    await checkA11y(page, 'dashboard ORG_ADMIN');
    const before = count(await tile.textContent());
    const devices = await apiAs<Paged<Device>>(page, 'device/?limit=1&ordering=serial_number');
    const serial = devices.results[0]?.serial_number;
    if (!serial) throw new Error('the ORG_ADMIN needs a device in the demo data');

    // The demo technician of the same clinic uploads a SCAN-type scan through the device API.
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/device/cli.ts', '--url', baseUrl(), '--token', await tokenFor('technician@demo.test'), '--serial', serial, '--scan-type', 'SCAN', '--left-finding', 'mass'],
      { cwd: root, encoding: 'utf8' },
    );
    // Refetched every 10 s (and on focus): no reload.
    await eventually(async () => count(await tile.textContent()) === before + 1);
    await snap(page, 'dashboard-org-admin-1400');
    await context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signInByEmail(phone.page, 'orgadmin@demo.test');
    await phone.page.goto('/dashboard');
    await phone.page.getByTestId('technician-stats-table').locator('tbody tr').first().waitFor();
    await checkA11y(phone.page, 'dashboard ORG_ADMIN phone');
    await snap(phone.page, 'dashboard-org-admin-390');
    await phone.context.close();
  });
});
