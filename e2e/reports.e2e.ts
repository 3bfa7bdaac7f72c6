// Journeys of issue 9 (period reports): an ADMIN generates the quarterly organization report and reads the
// downloaded file against the API's figures; an ORG_ADMIN generates the monthly technician report; MANAGER and
// DISTRIBUTOR_ADMIN see the page and the modal with the organization search. Screens at 1400 and 390 px, checked by axe.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  completedChoices,
  periodChoiceLabels,
  periodRange,
  previousPeriod,
  reportCsvColumns,
  reportFileName,
  reportQueryFor,
  type TReportPeriod,
  type TReportPeriodType,
} from '@sc/shared/reports';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Row = { id: number; scans_count_1: number; scans_count_2: number; dynamic_positivity_percentage_2: number };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

// The browser runs in Asia/Kolkata (browser.ts): its today decides which periods are complete.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());

/** The latest completed period of a type: this year's last one, or last year's final one in early January. */
function latest(type: TReportPeriodType): TReportPeriod {
  const year = Number(today.slice(0, 4));
  const done = completedChoices(year, type, today);
  return done.length ? { year, type, index: done.at(-1)! } : { year: year - 1, type, index: 12 / { MONTHLY: 1, QUARTERLY: 3, HALF_YEARLY: 6, ANNUALLY: 12 }[type] - 1 };
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function choosePeriod(page: Page, period: TReportPeriod, typeLabel: string) {
  await choose(page, 'report-year', String(period.year));
  await choose(page, 'report-period-type', typeLabel);
  await choose(page, 'report-period-choice', periodChoiceLabels(period.type)[period.index]!);
}

const apiQuery = (period: TReportPeriod) => new URLSearchParams({ ...reportQueryFor(period), report_log: 'false', limit: '1000' } as Record<string, string>).toString();

async function readDownload(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download').click()]);
  const lines = fs.readFileSync((await download.path())!, 'utf8').trim().split('\n');
  return { name: download.suggestedFilename(), lines };
}

describe('report page', () => {
  it('lets an ADMIN download the quarterly organization report, matching the API figures', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/report');
    await page.getByTestId('report-row-organization').waitFor();
    await checkA11y(page, 'report page ADMIN');
    await snap(page, 'report-admin-1400');

    await page.getByTestId('report-generate-organization').click();
    await page.getByTestId('report-organization').waitFor();
    const period = latest('QUARTERLY');
    await choosePeriod(page, period, 'Quarterly');
    await checkA11y(page, 'report modal ADMIN');
    await snap(page, 'report-modal-admin-1400');

    const expected = await apiAs<Paged<Row & { name: string }>>(page, `organization/leaderboard/report-generate/?${apiQuery(period)}`);
    const { name, lines } = await readDownload(page);
    expect(name).toBe(reportFileName('organization', periodRange(period)));
    expect(lines[0]).toBe(reportCsvColumns(periodRange(previousPeriod(period)), periodRange(period)).join(','));
    expect(lines).toHaveLength(expected.count + 1);
    const first = expected.results[0]!;
    expect(lines[1]!.startsWith(`${first.id},`)).toBe(true);
    expect(lines[1]).toContain(`,${first.scans_count_2},`);
    expect(lines[1]).toContain(`${first.dynamic_positivity_percentage_2.toFixed(1)}%`);
    // The modal closed after the download.
    await page.getByTestId('report-period-modal').waitFor({ state: 'detached' }).catch(() => undefined);
    expect(await page.getByTestId('report-download').count()).toBe(0);
    await context.close();
  }, 240_000);

  it('lets an ORG_ADMIN download the monthly technician report of its clinic', async () => {
    for (const width of [1400, 390]) {
      const { context, page } = await newPage(browser, { width, height: 900 });
      await signInByEmail(page, 'orgadmin@demo.test');
      await page.goto('/report');
      await page.getByTestId('report-generate-technician').click();
      // ORG_ADMIN has no organization search (part 3 §6).
      await page.getByTestId('report-year').waitFor();
      expect(await page.getByTestId('report-organization').count()).toBe(0);
      const period = latest('MONTHLY');
      await choosePeriod(page, period, 'Monthly');
      await snap(page, `report-modal-org-admin-${width}`);
      if (width === 1400) {
        const expected = await apiAs<Paged<Row>>(page, `organization/report-generate/?${apiQuery(period)}`);
        const { name, lines } = await readDownload(page);
        expect(name).toBe(reportFileName('technician', periodRange(period)));
        expect(lines).toHaveLength(expected.count + 1);
        for (const line of lines.slice(1)) expect(line.split(',')).toHaveLength(10);
        await snap(page, 'report-org-admin-1400');
      }
      await context.close();
    }
  }, 240_000);

  it('shows MANAGER and DISTRIBUTOR_ADMIN the page and the modal with the organization search', async () => {
    for (const [email, role] of [
      ['manager@demo.test', 'manager'],
      ['distributor@demo.test', 'distributor'],
      ['admin@demo.test', 'admin'],
    ] as const) {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, email);
        await page.goto('/report');
        await page.getByTestId('report-row-technician').waitFor();
        await snap(page, `report-${role}-${width}`);
        await page.getByTestId('report-generate-organization').click();
        await page.getByTestId('report-organization').waitFor();
        await page.getByTestId('report-download').click();
        await page.getByText('Select Year').first().waitFor();
        await snap(page, `report-modal-${role}-${width}`);
        if (width === 1400) {
          // A year before the demo's scans: the modal stays open with 'No scans found'.
          await choose(page, 'report-year', '2018');
          await choose(page, 'report-period-type', 'Annually');
          await page.getByTestId('report-download').click();
          await page.getByTestId('report-no-scans').getByText('No scans found').waitFor();
          await snap(page, `report-no-scans-${role}-1400`);
          // Narrowed to one organization of the caller's: the file name starts with its name.
          const period = latest('QUARTERLY');
          await choosePeriod(page, period, 'Quarterly');
          await page.getByTestId('report-organization').fill('a');
          const option = page.getByRole('option').first();
          const label = (await option.textContent()) ?? '';
          await option.click();
          const orgName = label.replace(/ \([^)]*\)$/, '');
          const picked = await apiAs<Paged<{ id: number; name: string }>>(page, `organization/?search=${encodeURIComponent(orgName)}&limit=1`);
          const orgId = picked.results[0]!.id;
          const probe = await fetch(`${baseUrl()}/api/v1/organization/leaderboard/report-generate/?${apiQuery(period)}&organization_id=${orgId}`, {
            headers: { Authorization: `Token ${await page.evaluate(() => localStorage.getItem('dashboard_token'))}` },
          });
          if (probe.status === 404) {
            await page.getByTestId('report-download').click();
            await page.getByTestId('report-no-scans').waitFor();
          } else {
            const { name } = await readDownload(page);
            expect(name).toBe(reportFileName('organization', periodRange(period), orgName));
          }
        }
        await context.close();
      }
    }
  }, 480_000);
});
