// Journey of issue 9 (report log): an ADMIN downloads a CSV, then finds that download in the report log by a value
// of its query; the page at 1400 and 390 px, checked with axe; a SUB_ADMIN is sent away (ADMIN only, architecture §7b).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { checkA11y, eventually, signInByEmail } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('report log', () => {
  it('lists a CSV download made in the test, found by a value of its query (ADMIN, 1400 and 390 px)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const token = await page.evaluate(() => localStorage.getItem('dashboard_token'));
    const serial = `LOGSER${Date.now()}`;
    const download = await fetch(`${baseUrl()}/api/v1/scan/?format=csv&sensor_serial_number=${serial}`, {
      headers: { Authorization: `Token ${token}`, 'User-Agent': 'report-log-journey' },
    });
    expect(download.status).toBe(200);
    await download.text();

    await page.goto('/report-log');
    await page.getByTestId('list-total').waitFor();
    await page.getByTestId('list-search').fill(serial);
    const row = page.getByText(`sensor_serial_number=${serial}`);
    await row.waitFor();
    // The download is the newest row before the search applies too: wait for the one row the search leaves (a
    // table of many long rows gives way its user agent column to fit its card, issue 23.12), then read it.
    await expect.poll(() => page.getByTestId('list-total').textContent()).toMatch(/^1 item/);
    const table = page.getByTestId('report-log-table');
    await expect.poll(() => table.textContent()).toContain('/api/v1/scan/');
    await expect.poll(() => table.textContent()).toContain('report-log-journey');
    await expect.poll(() => table.textContent()).toContain('Super Admin');
    await snap(page, 'report-log-admin-1400');
    await checkA11y(page, 'Report Log');
    await context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signInByEmail(phone.page, 'admin@demo.test');
    await phone.page.goto(`/report-log?search=${serial}`);
    await phone.page.getByTestId('report-log-table').getByText('/api/v1/scan/').first().waitFor();
    await snap(phone.page, 'report-log-admin-390');
    await checkA11y(phone.page, 'Report Log at 390px');
    await phone.context.close();
  });

  it('sends a SUB_ADMIN away from the report log', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'subadmin@demo.test');
    await page.goto('/report-log');
    await eventually(async () => !new URL(page.url()).pathname.startsWith('/report-log'));
    await context.close();
  });
});
