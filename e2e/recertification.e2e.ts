// Journeys of issue 9 (re-certification): an ADMIN finds a technician whose certificate expired or expires within 30
// days, opens the Technician Scan List modal (details, counts, map, scans), re-certifies them and sees the new
// expiry; the list then leaves them out. The page and the modal as each role that may open them, at 1400 and 390 px,
// checked with axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { RECERTIFICATION_MESSAGES, addIsoDays } from '@sc/shared/scans';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Technician = {
  id: number;
  first_name: string;
  last_name: string;
  certificate_expiry_date: string | null;
  organization_data: { name: string } | null;
};

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** Today in the browser's zone (the journeys run in Asia/Kolkata). */
const todayIn = async (page: Page) => page.evaluate(() => new Date().toLocaleDateString('en-CA'));

async function dueTechnicians(page: Page): Promise<Technician[]> {
  const today = await todayIn(page);
  const query = new URLSearchParams({
    ibe_training_status: 'CERTIFIED',
    certificate_expiry_date_after: '2020-01-01',
    certificate_expiry_date_before: addIsoDays(today, 30),
    ordering: 'certificate_expiry_date',
    limit: '20',
  });
  return (await apiAs<Paged<Technician>>(page, `organization/user/?${query}`)).results;
}

describe('re-certification', () => {
  // Before the journey below renews a due technician, so every role's scope still holds one.
  it.each(['admin', 'subadmin', 'distributor', 'manager'])(
    'shows the page and the technician modal to %s at 1400 and 390 px',
    async (who) => {
      for (const viewport of [
        { width: 1400, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const { context, page } = await newPage(browser, viewport);
        await signInByEmail(page, `${who}@demo.test`);
        await page.goto('/re-certification');
        await page.getByTestId('list-total').waitFor();
        await page.getByTestId('recertification-table').waitFor();
        const first = page.locator('[data-testid^="recertify-"]').first();
        await first.or(page.getByText(RECERTIFICATION_MESSAGES.empty)).first().waitFor();
        await snap(page, `recert-list-${who}-${viewport.width}`);
        await checkA11y(page, `Re-Certification as ${who} at ${viewport.width}px`);
        if ((await first.count()) > 0) {
          await first.click();
          const modal = page.getByTestId('technician-scan-modal');
          await modal.getByTestId('technician-summary').waitFor();
          // Only ADMIN and SUB_ADMIN may re-certify (the API refuses the others).
          const mayRenew = who === 'admin' || who === 'subadmin';
          await expect(modal.getByTestId('technician-recertify').count()).resolves.toBe(mayRenew ? 1 : 0);
          await snap(page, `recert-modal-${who}-${viewport.width}`);
          await checkA11y(page, `Technician Scan List as ${who} at ${viewport.width}px`);
        }
        await context.close();
      }
    },
    120_000,
  );

  it('finds a technician, opens the modal, re-certifies them and sees the new expiry (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const due = await dueTechnicians(page);
    // The last of the page: another journey's technician is not taken from under it.
    const tech = due.at(-1);
    if (!tech) throw new Error('the demo data needs certified technicians whose certificate is due');
    const name = `${tech.first_name} ${tech.last_name}`;

    await page.goto('/re-certification');
    await page.getByTestId('list-total').waitFor();
    await page.getByTestId('list-search').fill(tech.last_name);
    await page.getByTestId(`recertify-${tech.id}`).waitFor();
    await snap(page, 'recert-1-list-admin-1400');
    await checkA11y(page, 'Re-Certification');

    await page.getByTestId(`recertify-${tech.id}`).click();
    const modal = page.getByTestId('technician-scan-modal');
    await modal.getByTestId('technician-details').waitFor();
    await modal.getByTestId('technician-summary').waitFor();
    await expect(modal.getByTestId('technician-details').textContent()).resolves.toContain(name);
    await snap(page, 'recert-2-modal-admin-1400');
    await checkA11y(page, 'Technician Scan List');

    await modal.getByTestId('technician-recertify').click();
    await page.getByText(RECERTIFICATION_MESSAGES.confirm(name)).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByText(USER_MESSAGES.reCertified).first().waitFor();
    // A new year from today: the API and the modal say so.
    const today = await todayIn(page);
    let expiry: string | null = null;
    await eventually(async () => {
      expiry = (await apiAs<Technician>(page, `organization/user/${tech.id}/`)).certificate_expiry_date;
      return expiry !== null && expiry > addIsoDays(today, 360);
    });
    const shown = new Date(`${expiry}T00:00:00Z`).toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
    await eventually(async () => ((await modal.getByTestId('technician-details').textContent()) ?? '').includes(shown));
    await snap(page, 'recert-3-renewed-admin-1400');

    // The list reloads: the certificate is no longer due, so the technician leaves it.
    await page.keyboard.press('Escape');
    await eventually(async () => (await page.getByTestId(`recertify-${tech.id}`).count()) === 0);
    await context.close();
  });

  it('sends an ORG_ADMIN, who has no Re-Certification menu entry, to its landing page', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    await page.goto('/re-certification');
    await eventually(async () => !new URL(page.url()).pathname.startsWith('/re-certification'));
    await context.close();
  });
});
