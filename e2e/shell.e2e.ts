// Journeys of issue 6 in the shell: ending an impersonation with 'Stop impersonating', the banner and the
// impersonation modal on a 390 px phone, the shell and the organization pages at desktop and phone widths for an
// ADMIN and a non-admin. Every screen passes the accessibility check; screenshots go to e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, openImpersonationModal, signInByEmail } from './helpers.ts';

const PHONE = { width: 390, height: 844 };
type Paged<T> = { count: number; results: T[] };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The element lies inside the viewport horizontally (not pushed off-screen or clipped by its width). */
async function isWithinViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

/** Starts an impersonation of orgadmin@demo.test from the user card (ADMIN signed in). */
async function impersonateOrgAdmin(page: Page, screenName: string): Promise<void> {
  const users = await apiAs<Paged<{ id: number }>>(page, 'organization/user/?search=orgadmin%40demo.test');
  const target = users.results[0]!;
  await openImpersonationModal(page);
  await page.getByTestId('impersonation-search').fill('orgadmin');
  const button = page.getByTestId(`impersonate-${target.id}`);
  await button.waitFor();
  await snap(page, `${screenName}-modal`);
  await checkA11y(page, `impersonation modal (${screenName})`);
  expect(await isWithinViewport(page, button), 'Impersonate button on screen').toBe(true);
  await button.click();
  await page.getByTestId('impersonation-banner').waitFor();
}

describe('shell', () => {
  it('ends an impersonation with the Stop impersonating button', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await impersonateOrgAdmin(page, 'impersonation-1400');
    await expect(page.getByTestId('impersonation-seen-as').textContent()).resolves.toContain('ORG Admin');
    await snap(page, 'impersonation-banner-1400');
    await checkA11y(page, 'impersonation banner at 1400 px');

    await page.getByRole('button', { name: 'Stop impersonating' }).click();
    await page.getByTestId('impersonation-banner').waitFor({ state: 'detached', timeout: 10_000 });
    await expect(page.evaluate(() => localStorage.getItem('impersonation_token'))).resolves.toBeNull();
    await page.getByTestId('user-card').click();
    await expect(page.getByTestId('user-card-role').textContent()).resolves.toBe('Super Admin');
    await context.close();
  });

  it('keeps the impersonation banner whole on a 390 px phone, and its Stop button in reach', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signInByEmail(page, 'admin@demo.test');
    await impersonateOrgAdmin(page, 'impersonation-390');
    const banner = page.getByTestId('impersonation-banner');
    await snap(page, 'impersonation-banner-390');
    await checkA11y(page, 'impersonation banner at 390 px');

    // Nothing in the banner is cut: each part lies inside it and inside the screen, and the switch does not
    // cover the text.
    const bannerBox = (await banner.boundingBox())!;
    for (const part of [
      page.getByText('Impersonation Mode'),
      page.getByText('As seen By'),
      page.getByTestId('impersonation-seen-as'),
      page.getByRole('button', { name: 'Stop impersonating' }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(await isWithinViewport(page, part)).toBe(true);
      expect(box.y >= bannerBox.y && box.y + box.height <= bannerBox.y + bannerBox.height + 0.5).toBe(true);
    }
    const seenAs = page.getByTestId('impersonation-seen-as');
    // The name is shown in full (no ellipsis) at this width.
    await expect(seenAs.evaluate((el) => el.scrollWidth <= el.clientWidth)).resolves.toBe(true);
    const label = (await page.getByText('As seen By').boundingBox())!;
    const name = (await seenAs.boundingBox())!;
    expect(label.x + label.width <= name.x).toBe(true);
    // The top bar under the banner is not covered by it.
    const burger = (await page.getByTestId('burger').boundingBox())!;
    expect(burger.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height);

    await page.getByRole('button', { name: 'Stop impersonating' }).click();
    await banner.waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });

  it('shows the shell and the organization pages at 390 px to an ADMIN and to an ORG_ADMIN', async () => {
    for (const [email, who] of [
      ['admin@demo.test', 'admin'],
      ['orgadmin@demo.test', 'orgadmin'],
    ] as const) {
      const { context, page } = await newPage(browser, PHONE);
      await signInByEmail(page, email);
      await page.getByTestId('burger').click();
      await page.getByTestId('nav-organization').waitFor();
      await snap(page, `shell-menu-390-${who}`);
      await checkA11y(page, `menu at 390 px (${who})`);
      await page.getByTestId('nav-organization').click();
      await page.getByTestId('organization-table').waitFor();
      await snap(page, `organization-list-390-${who}`);
      await checkA11y(page, `organization list at 390 px (${who})`);
      await page.getByTestId('user-card').click();
      await page.getByTestId('user-card-dropdown').waitFor();
      await snap(page, `user-card-390-${who}`);
      await checkA11y(page, `user card at 390 px (${who})`);
      await context.close();
    }
  });

  it('opens an organization page whose tabs read as the menu does', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const list = await apiAs<Paged<{ id: number }>>(page, 'organization/?search=Arogya%20Health%20Network');
    await page.goto(`/organization/${list.results[0]!.id}`);
    await page.getByRole('tab', { name: 'Cervical Exams' }).waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Breast Scans', 'Cervical Exams', 'ORCA Exams']));
    await snap(page, 'organization-detail-1400-admin');
    await checkA11y(page, 'organization detail as ADMIN');
    await context.close();
  });
});
