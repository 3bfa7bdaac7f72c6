// Journeys of issue 23 items 10–13: a signed-out deep link returns to the asked page after sign-in and the login page
// refuses to send anyone off the site; from a patient to their scans; every list fits its card at 1280 and 1440 px
// (no sideways scroll); a dashboard tile followed to the list finds the tile's number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MENU, type MenuItem } from '@sc/shared/permissions';
import { launch, newPage, snap } from './browser.ts';
import { PASSWORD, apiAs, signInByEmail } from './helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const count = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

async function signInOnLoginPage(page: Page, email: string): Promise<void> {
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-email-submit').click();
}

/** The ADMIN's menu routes that show a list (the dashboard, map and report have none). */
function listRoutes(): string[] {
  const paths: string[] = [];
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      if (item.children) walk(item.children);
      else if (item.path && item.roles.includes('ADMIN')) paths.push(item.path);
    }
  };
  walk(MENU);
  return paths.filter((p) => !['/dashboard', '/mapreport', '/report'].includes(p));
}

describe('issue 23.10–23.13', () => {
  it('returns a signed-out deep link to the asked page after sign-in, and never off the site', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/scan?search=asha&period=30');
    await page.waitForURL(/\/login\?next=/);
    await signInOnLoginPage(page, 'admin@demo.test');
    await page.waitForURL((url) => url.pathname === '/scan');
    const url = new URL(page.url());
    expect([url.searchParams.get('search'), url.searchParams.get('period')]).toEqual(['asha', '30']);
    expect(await page.getByPlaceholder(/Search by name/).inputValue()).toBe('asha');

    for (const next of ['//evil.com/scan', 'https://evil', '/\\evil.com']) {
      await page.evaluate(() => localStorage.clear());
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await signInOnLoginPage(page, 'admin@demo.test');
      // Still on this console (a followed `next` would have left it), at the role's landing page.
      await page.waitForURL((url) => url.pathname === '/dashboard');
    }
    await context.close();
  });

  it('says on the login page that the session expired, and returns to the page it was on', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/patient?search=a');
    await page.getByTestId('list-total').waitFor();
    // The server forgets the session (idle expiry): the next call answers 401.
    await page.evaluate(() => localStorage.setItem('dashboard_token', 'expired-token'));
    await page.getByTestId('period-tab-30').click();
    await page.getByTestId('session-expired-dialog').waitFor();
    await page.getByTestId('login-session-expired').waitFor({ timeout: 15_000 });
    await snap(page, 'login-session-expired-1400');
    await signInOnLoginPage(page, 'admin@demo.test');
    await page.waitForURL((url) => url.pathname === '/patient');
    await context.close();
  });

  it("opens a patient's breast scans from the patient row menu, filtered to them with a removable chip", async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    type Paged<T> = { count: number; results: T[] };
    const scans = await apiAs<Paged<{ patient: { id: number; first_name: string; last_name: string } | null }>>(
      page,
      'scan/?limit=1&scan_type=SCAN',
    );
    const patient = scans.results[0]!.patient!;
    const own = await apiAs<Paged<unknown>>(page, `scan/?patient=${patient.id}&limit=1`);
    await page.goto(`/patient?search=${encodeURIComponent(patient.first_name)}`);
    await page.getByTestId(`row-actions-${patient.id}`).click();
    await page.getByTestId('row-action-records-scan').click();
    await page.waitForURL((url) => url.pathname === '/scan' && url.searchParams.get('patient') === String(patient.id));
    await page.getByTestId('patient-filter-chip').waitFor();
    await page.getByTestId('list-total').getByText(`${own.count} ${own.count === 1 ? 'item' : 'items'}`).waitFor();
    await snap(page, 'patient-scans-chip-1400');
    await page.getByTestId('patient-filter-remove').click();
    await page.waitForURL((url) => !url.searchParams.has('patient'));
    await context.close();
  });

  it.each([1280, 1440])('fits every list in its card at %i px: no sideways scroll', async (width) => {
    const { context, page } = await newPage(browser, { width, height: 900 });
    await signInByEmail(page, 'admin@demo.test');
    const overflowing: string[] = [];
    for (const route of listRoutes()) {
      await page.goto(route);
      await page.locator('.mantine-datatable tbody tr').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
      const sizes = await page.evaluate(() => ({
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        tables: Array.from(document.querySelectorAll('.mantine-datatable')).map((table) => {
          const viewport = table.querySelector('.mantine-ScrollArea-viewport') ?? table;
          return [viewport.scrollWidth, viewport.clientWidth];
        }),
      }));
      const tooWide = [sizes.page, ...sizes.tables].some(([scroll, client]) => scroll! > client! + 1);
      if (tooWide) overflowing.push(`${route} ${JSON.stringify(sizes)}`);
    }
    expect(overflowing).toEqual([]);
    await context.close();
  }, 300_000);

  it('follows the Scans and Positive Scans tiles to the list and finds the same numbers', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    for (const period of ['', '?period=30']) {
      for (const tile of ['scans', 'positive'] as const) {
        await page.goto(`/dashboard${period}`);
        const value = page.getByTestId(`tile-${tile}-value`);
        await value.waitFor();
        const shown = count(await value.textContent());
        expect(await page.getByTestId(`tile-${tile}-caption`).textContent()).toContain('Type SCAN only');
        await value.click();
        await page.waitForURL(/\/scan\?scan_type=SCAN/);
        // The footer writes the total without separators ('3138 items').
        await page.getByTestId('list-total').getByText(`${shown} items`, { exact: true }).waitFor();
      }
    }
    await context.close();
  });
});
