// Journeys of issue 6 on the organization screens: a SUB_ADMIN creates an organization from the user card with
// only the required fields and sees its country; the list on a 390 px phone; the parent picker while editing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, pickOption, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type OrgRow = { id: number; name: string; country: string | null; parent: number | null };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** GETs of the organization list (`organization/`, not one organization) the page makes from now on. */
function countListReads(page: Page): { searches: string[] } {
  const seen = { searches: [] as string[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/api/v1/organization/') seen.searches.push(url.search);
  });
  return seen;
}

describe('organization screens (issue 6)', () => {
  it('lets a SUB_ADMIN create an organization from the user card with only the required fields, shown with its country', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'subadmin@demo.test');
    await page.getByTestId('user-card').click();
    await page.getByTestId('user-card-create-organization').click();
    await page.getByTestId('org-form').waitFor();

    const name = `Polish Clinic ${Date.now() % 100000}`;
    await page.getByTestId('org-name').fill(name);
    await pickOption(page, 'org-country', 'India', /^India$/);
    await page.getByTestId('org-address-1').fill('12 Station Road');
    await page.getByTestId('org-address-3').fill('Pune');
    await page.getByTestId('org-state').fill('Maharashtra');
    await page.getByTestId('org-zipcode').fill('411001');
    // The company contact filled itself from the organization's name and address (part 1 §4).
    expect(await page.getByTestId('org-company-state').inputValue()).toBe('Maharashtra');
    await page.getByTestId('org-form-submit').click();
    await page.getByTestId('org-form').waitFor({ state: 'detached' });
    // 'Organization created Successfully' closes itself after 3 seconds (part 1 §2.8).
    await eventually(async () => (await page.getByRole('dialog').count()) === 0);

    const list = await apiAs<Paged<OrgRow>>(page, `organization/?search=${encodeURIComponent(name)}`);
    expect(list.results.map((o) => [o.name, o.country])).toEqual([[name, 'India']]);
    await page.getByPlaceholder('Search by organization name and address').fill(name);
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain('India');
    await checkA11y(page, 'organization list after a create');
    await context.close();
  });

  it('keeps every organization row’s actions on a 390 px phone screen and each date on one line', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/organization');
    const actions = page.locator('[data-testid^="row-actions-"]');
    await actions.first().waitFor();
    expect(await actions.count()).toBeGreaterThan(0);
    for (const box of await Promise.all((await actions.all()).map((a) => a.boundingBox()))) {
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    const lineHeights = await page
      .getByTestId('organization-table')
      .locator('time')
      .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().height));
    expect(lineHeights.length).toBeGreaterThan(0);
    for (const height of lineHeights) expect(height).toBeLessThan(30);
    // At most five numbered page links.
    const numbers = (await page.getByTestId('list-pagination').locator('button').allTextContents()).filter((t) => /^\d+$/.test(t));
    expect(numbers.length).toBeLessThanOrEqual(5);
    await snap(page, 'organization-list-390');

    await actions.first().click();
    await page.getByTestId('row-action-details').click();
    await page.getByTestId('organization-detail').waitFor();
    await context.close();
  });

  it('does not keep searching for parents while an ADMIN edits a sub-organization', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const subs = await apiAs<Paged<OrgRow>>(page, 'organization/?sub_organisation=true&limit=1');
    const sub = subs.results[0]!;
    const reads = countListReads(page);
    await page.goto(`/organization/${sub.id}?edit=true`);
    await page.getByTestId('org-form').waitFor();
    // The chosen parent's label arrives with its record.
    await eventually(async () => (await page.getByTestId('org-parent').inputValue()) !== '');
    const label = await page.getByTestId('org-parent').inputValue();
    await page.waitForTimeout(2000);
    expect(reads.searches).toEqual([]);
    expect(await page.getByTestId('org-parent').inputValue()).toBe(label);

    // Typing searches once the text settles, from the read replica.
    await page.getByTestId('org-parent').fill('A');
    await eventually(async () => reads.searches.length > 0);
    await page.waitForTimeout(500);
    expect(reads.searches).toHaveLength(1);
    expect(reads.searches[0]).toContain('using_read_db=true');
    await context.close();
  });
});
