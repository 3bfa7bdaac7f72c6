// Journeys of issue 10 (licences): an ADMIN adds a licence (count by plus and minus only), renews it (current,
// added, total), reads its log and deletes it; axe on each screen; the list and the License Details modal for each
// role that may open them at desktop and phone width; a role without the menu entry is refused by the API too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LICENCE_MESSAGES } from '@sc/shared/licences';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, pickOption, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Licence = {
  id: number;
  license_code: string;
  organization: { id: number; name: string };
  count: number;
  total_license_count: number;
};

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The list searched by a licence's key, with that licence's row shown. */
async function showLicence(page: Page, code: string): Promise<void> {
  await page.goto(`/license?search=${encodeURIComponent(code)}`);
  await page.getByRole('button', { name: `Actions for license ${code}` }).waitFor();
}

async function rowAction(page: Page, code: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for license ${code}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('Licences', () => {
  it('adds a licence, renews it and shows both changes in its log, then deletes it (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const all = await apiAs<Paged<Licence>>(page, 'organization/license/?limit=1');
    await page.goto('/license');
    await page.getByTestId('list-total').getByText(`${all.count} items`).waitFor();
    await checkA11y(page, 'Licence list');
    await snap(page, 'licence-list-admin-1400');

    // Add License: organization, application, and 100 → 300 → 200 with plus and minus only.
    const [org] = (
      await apiAs<Paged<{ id: number; name: string }>>(page, 'organization/?limit=1&ordering=name')
    ).results;
    if (!org) throw new Error('the demo data needs an organization');
    await page.getByTestId('licence-add').click();
    const form = page.getByRole('dialog', { name: 'Add License' });
    await form.getByTestId('licence-count').getByText('100').waitFor();
    expect(await form.getByTestId('licence-count-minus').isDisabled()).toBe(true);
    await pickOption(
      page,
      'licence-organization',
      org.name.slice(0, 8),
      new RegExp(`^${escapeRegExp(org.name)}`),
    );
    await form.getByTestId('licence-application').click();
    await page.getByRole('option', { name: 'ORCA', exact: true }).click();
    await form.getByTestId('licence-count-plus').click();
    await form.getByTestId('licence-count-plus').click();
    await form.getByTestId('licence-count-minus').click();
    await form.getByTestId('licence-count').getByText('200').waitFor();
    await checkA11y(page, 'Add License');
    await snap(page, 'licence-add-admin-1400');
    await form.getByTestId('licence-submit').click();
    await page.getByText(LICENCE_MESSAGES.created).waitFor();
    await form.waitFor({ state: 'hidden' });

    const [created] = (
      await apiAs<Paged<Licence>>(
        page,
        `organization/license/?organization=${org.id}&ordering=-created&limit=1`,
      )
    ).results;
    if (!created) throw new Error('the new licence is not listed');
    expect(created).toMatchObject({ count: 200, total_license_count: 200 });
    expect(created.license_code).toMatch(/^ORC-/);

    // Renew (Edit License): read-only organization and application; current 200, +300, total 500.
    await showLicence(page, created.license_code);
    await rowAction(page, created.license_code, 'Renew');
    const renew = page.getByRole('dialog', { name: 'Edit License' });
    await renew.getByTestId('licence-current').getByText('200').waitFor();
    expect(await renew.getByTestId('licence-organization').getAttribute('readonly')).not.toBeNull();
    for (let i = 0; i < 3; i++) await renew.getByTestId('licence-added-plus').click();
    await renew.getByTestId('licence-added-summary').getByText('+300').waitFor();
    await renew.getByTestId('licence-total').getByText('500').waitFor();
    await checkA11y(page, 'Edit License');
    await snap(page, 'licence-renew-admin-1400');
    await renew.getByTestId('licence-submit').click();
    await page.getByText(LICENCE_MESSAGES.renewed).waitFor();
    await page.getByTestId(`licence-available-${created.id}`).getByText('500').waitFor();
    await page.getByTestId(`licence-total-${created.id}`).getByText('500').waitFor();

    // Log (License Details): the grant and the renewal, newest first, by the admin.
    await rowAction(page, created.license_code, 'Log');
    const details = page.getByRole('dialog', { name: 'License Details' });
    await details.getByText(created.license_code).waitFor();
    const rows = details.getByTestId('licence-log-row');
    await expect.poll(() => rows.count()).toBe(2);
    const cells = async (n: number) => (await rows.nth(n).locator('td').allTextContents()).slice(0, 3);
    expect(await cells(0)).toEqual(['1', '200', '500']);
    expect(await cells(1)).toEqual(['2', '0', '200']);
    await checkA11y(page, 'License Details');
    await snap(page, 'licence-details-admin-1400');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // Delete after the confirm.
    await rowAction(page, created.license_code, 'Delete');
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByText(LICENCE_MESSAGES.deleted).waitFor();
    await page.getByText(LICENCE_MESSAGES.emptyFiltered).waitFor();
    await context.close();
  }, 180_000);

  it('shows the licence screens to ADMIN and SUB_ADMIN at desktop and phone width', async () => {
    for (const role of ['admin', 'subadmin'] as const) {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, `${role}@demo.test`);
        const [first] = (await apiAs<Paged<Licence>>(page, 'organization/license/?limit=1')).results;
        if (!first) throw new Error('the demo data needs a licence');
        await page.goto('/license');
        await page.getByRole('button', { name: `Actions for license ${first.license_code}` }).waitFor();
        // The row's actions stay on screen on a phone.
        const box = await page
          .getByRole('button', { name: `Actions for license ${first.license_code}` })
          .boundingBox();
        expect(box && box.x + box.width <= width).toBe(true);
        await snap(page, `licence-list-${role}-${width}`);
        await rowAction(page, first.license_code, 'Log');
        const details = page.getByRole('dialog', { name: 'License Details' });
        await details.getByTestId('licence-log-row').first().waitFor();
        await snap(page, `licence-details-${role}-${width}`);
        await page.keyboard.press('Escape');
        await rowAction(page, first.license_code, 'Renew');
        await page.getByRole('dialog', { name: 'Edit License' }).getByTestId('licence-current').waitFor();
        await snap(page, `licence-renew-${role}-${width}`);
        await context.close();
      }
    }
  }, 240_000);

  it('keeps the licences from every other role, in the API as in the menu', async () => {
    for (const email of ['orgadmin@demo.test', 'distributor@demo.test', 'manager@demo.test']) {
      const token = await tokenFor(email);
      const r = await fetch(`${baseUrl()}/api/v1/organization/license/`, {
        headers: { Authorization: `Token ${token}` },
      });
      expect(r.status, email).toBe(403);
    }
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    expect(await page.getByTestId('nav-menu').getByText('License', { exact: true }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
