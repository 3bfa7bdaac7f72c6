// Journey of issue 27 (the audit trail): an ADMIN edits an organization, opens Audit trail, keeps the Organizations
// group and opens that edit's row, whose changes show the field before and after; the organization's History tab lists
// the same edit;
// an ORG_ADMIN reads only their organization's rows and has no organization filter; a MANAGER is refused the trail.
// Screenshots of the screen and the row at 1440 and 390 px, with the accessibility check.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AUDIT_GROUP_LABELS, type TAuditRow } from '@sc/shared/audit';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  await snap(page, name);
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(import.meta.dirname, 'screenshots', `${name}.png`), path.join(dir, `${name}.png`));
  }
}

async function api<T>(token: string, method: string, apiPath: string, body?: unknown): Promise<T> {
  const r = await fetch(`${baseUrl()}/api/v1/${apiPath}`, {
    method,
    headers: { Authorization: `Token ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) throw new Error(`${method} ${apiPath} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** The organization of a demo account (its session user). */
async function organizationOf(email: string): Promise<number> {
  const me = await api<{ organization: number | null }>(await tokenFor(email), 'GET', 'user/');
  if (!me.organization) throw new Error(`${email} needs an organization`);
  return me.organization;
}

describe('Audit trail', () => {
  // The ORG_ADMIN's organization, edited by the ADMIN: a write with its changes, inside the ORG_ADMIN's scope.
  let organization = 0;
  let address = '';

  it('an ADMIN finds an edit by its group and reads what changed, on the screen and in the record’s History', async () => {
    organization = await organizationOf('orgadmin@demo.test');
    address = `Audit Street ${Date.now() % 100000}`;
    await api(await tokenFor('admin@demo.test'), 'PATCH', `organization/${organization}/`, { address_3: address });

    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    try {
      await signInByEmail(page, 'admin@demo.test');
      await page.getByTestId('nav-audit').click();
      await page.getByTestId('audit-list').waitFor();
      await page.getByTestId('audit-group-filter').click();
      await page.getByRole('option', { name: AUDIT_GROUP_LABELS.organizations, exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe('organizations');
      const row = page.getByTestId('audit-table').locator('tbody tr', { hasText: `Organization ${organization}` }).first();
      await row.waitFor();
      await shot(page, 'audit-admin-1440');
      await checkA11y(page, 'audit list');

      // The first cell: the target cell is a link to the organization's page.
      await row.locator('td').first().click();
      const change = page.getByTestId('audit-row-details').getByTestId('audit-change-address_3');
      await expect.poll(() => change.textContent()).toContain(address);
      await shot(page, 'audit-row-admin-1440');
      await checkA11y(page, 'audit row');
      await page.keyboard.press('Escape');
      await page.getByTestId('audit-row-details').waitFor({ state: 'detached' });

      // The organization's History tab: the same edit, newest first.
      await page.goto(`/organization/${organization}?tab=history`);
      const history = page.getByTestId('record-history-table');
      await history.getByText('Organization updated').first().click();
      await expect
        .poll(() => page.getByTestId('audit-row-details').getByTestId('audit-change-address_3').textContent())
        .toContain(address);
      await shot(page, 'audit-history-organization-admin-1440');
      await checkA11y(page, 'organization history');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/audit?group=organizations');
      await page.getByTestId('audit-table').locator('tbody tr', { hasText: 'Organization updated' }).first().waitFor();
      await shot(page, 'audit-admin-390');
      await checkA11y(page, 'audit list on a phone');
    } finally {
      await context.close();
    }
  });

  it('an ORG_ADMIN reads only their organization’s rows, without the organization filter', async () => {
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    try {
      await signInByEmail(page, 'orgadmin@demo.test');
      await page.getByTestId('nav-audit').click();
      await page.getByTestId('audit-list').waitFor();
      // Off the menu: the check reads the page, not the entry's hover shade.
      await page.mouse.move(720, 20);
      await page.getByTestId('audit-table').locator('tbody tr', { hasText: 'Organization updated' }).first().waitFor();
      expect(await page.getByTestId('audit-organization-filter').count()).toBe(0);
      expect(await page.getByTestId('audit-retention').count()).toBe(0);
      const rows = await apiAs<Paged<TAuditRow>>(page, 'audit/?limit=200');
      expect(rows.results.length).toBeGreaterThan(0);
      expect(new Set(rows.results.map((r) => r.organization?.id))).toEqual(new Set([organization]));
      await shot(page, 'audit-orgadmin-1440');
      await checkA11y(page, 'audit list of an ORG_ADMIN');
    } finally {
      await context.close();
    }
  });

  it('a MANAGER is refused the trail', async () => {
    const token = await tokenFor('manager@demo.test');
    const r = await fetch(`${baseUrl()}/api/v1/audit/`, { headers: { Authorization: `Token ${token}` } });
    expect(r.status).toBe(403);
  });
});
