// Journey of issue 27 (the audit trail): an ADMIN edits a patient, opens Audit trail, keeps the Patients group and
// opens that edit's row, whose changes show the field before and after; the patient's History lists the same edit;
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

describe('Audit trail', () => {
  it('an ADMIN finds a patient edit by its group and reads what changed, on the screen and in the History', async () => {
    const token = await tokenFor('admin@demo.test');
    const patients = await api<Paged<{ id: number; first_name: string; last_name: string }>>(token, 'GET', 'patient/?limit=1');
    const patient = patients.results[0];
    if (!patient) throw new Error('the demo data needs a patient');
    const physician = `Dr Audit ${Date.now() % 100000}`;
    await api(token, 'PATCH', `patient/${patient.id}/`, { physician_name: physician });

    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    try {
      await signInByEmail(page, 'admin@demo.test');
      await page.getByTestId('nav-audit').click();
      await page.getByTestId('audit-list').waitFor();
      await page.getByTestId('audit-group-filter').click();
      await page.getByRole('option', { name: AUDIT_GROUP_LABELS.patients, exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe('patients');
      const row = page.getByTestId('audit-table').locator('tbody tr', { hasText: `Patient ${patient.id}` }).first();
      await row.waitFor();
      await shot(page, 'audit-admin-1440');
      await checkA11y(page, 'audit list');

      await row.click();
      const dialog = page.getByTestId('audit-row-dialog');
      await dialog.getByTestId('audit-change-physician_name').waitFor();
      await expect.poll(() => dialog.getByTestId('audit-change-physician_name').textContent()).toContain(physician);
      await shot(page, 'audit-row-admin-1440');
      await checkA11y(page, 'audit row');
      await page.keyboard.press('Escape');

      // The patient's History: the same edit, from the patient's dialog.
      const rows = await apiAs<Paged<TAuditRow>>(page, `audit/?target_type=patient&target_id=${patient.id}`);
      expect(rows.results[0]?.action).toBe('patient.updated');
      await page.goto('/patient');
      await page.getByTestId('patient-table').waitFor();
      await page.getByTestId('list-search').fill(patient.last_name);
      const actions = page.getByRole('button', { name: `Actions for ${patient.first_name} ${patient.last_name}` });
      await actions.first().click();
      await page.getByRole('menuitem', { name: 'Details' }).click();
      await page.getByTestId('patient-details').waitFor();
      await page.getByTestId('history-patient').click();
      const history = page.getByTestId('record-history-table');
      await history.getByText('Patient updated').first().click();
      await expect
        .poll(() => page.getByTestId('audit-change-physician_name').last().textContent())
        .toContain(physician);
      await shot(page, 'audit-history-patient-admin-1440');
      await checkA11y(page, 'patient history');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/audit?group=patients');
      await page.getByTestId('audit-table').locator('tbody tr').first().waitFor();
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
      const me = await apiAs<{ organization: number | null }>(page, 'user/me/').catch(() => null);
      await page.getByTestId('nav-audit').click();
      await page.getByTestId('audit-list').waitFor();
      await page.getByTestId('audit-table').locator('tbody tr').first().waitFor();
      expect(await page.getByTestId('audit-organization-filter').count()).toBe(0);
      expect(await page.getByTestId('audit-retention').count()).toBe(0);
      const rows = await apiAs<Paged<TAuditRow>>(page, 'audit/?limit=200');
      expect(rows.results.length).toBeGreaterThan(0);
      const organizations = new Set(rows.results.map((r) => r.organization?.id));
      expect(organizations.size).toBe(1);
      if (me?.organization) expect([...organizations][0]).toBe(me.organization);
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
