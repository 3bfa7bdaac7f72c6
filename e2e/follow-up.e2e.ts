// Journey of issue 26 (follow-up of screen-positive patients): an ORG_ADMIN opens Follow-up, keeps the overdue
// cases, opens one, records a contact attempt that reaches the patient (the case becomes Contacted), refers her,
// marks her seen and closes the case with an outcome; an ADMIN has the organization filter; a cervical reviewer has
// no Follow-up entry and is refused the route. Screenshots of the worklist and the dialog at 1440 and 390 px.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FOLLOW_UP_MESSAGES, type TFollowUpRow } from '@sc/shared/follow-up';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A screenshot for the journey's report, also kept under SHOTS_DIR when set (the reviewer's folder). */
async function shot(page: Page, name: string) {
  await snap(page, name);
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(
      path.join(import.meta.dirname, 'screenshots', `${name}.png`),
      path.join(dir, `${name}.png`),
    );
  }
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).first().click();
}

async function saveAction(page: Page, kind: string) {
  await page.getByTestId('follow-up-action-kind').getByText(kind, { exact: true }).click();
}

async function submitAndWait(page: Page) {
  await page.getByTestId('follow-up-action-submit').click();
  await page.getByText(FOLLOW_UP_MESSAGES.actionSaved).first().waitFor();
}

const today = () => new Date().toISOString().slice(0, 10);

describe('Follow-up', () => {
  it('an ORG_ADMIN follows an overdue case from the first contact to its outcome', async () => {
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    try {
      await signInByEmail(page, 'orgadmin@demo.test');
      await page.getByTestId('nav-follow-up').click();
      await page.getByTestId('follow-up-list').waitFor();
      await page.getByTestId('follow-up-overdue-filter').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('overdue')).toBe('true');
      await page.getByTestId('follow-up-next-due').first().waitFor();
      await shot(page, 'follow-up-orgadmin-1440');
      await checkA11y(page, 'follow-up list');

      // An open, overdue case of the demo: found by its patient's name in the list.
      const open = await apiAs<Paged<TFollowUpRow>>(page, 'follow-up/?status=OPEN&overdue=true&limit=1');
      const kase = open.results[0];
      if (!kase) throw new Error('the demo data needs an open overdue case for the ORG_ADMIN');
      const name = `${kase.patient.first_name} ${kase.patient.last_name}`;
      await page.getByPlaceholder(FOLLOW_UP_MESSAGES.searchPlaceholder).fill(kase.patient.first_name);
      await page.getByTestId('follow-up-table').getByText(name).first().click();
      const dialog = page.getByTestId('follow-up-case');
      await dialog.waitFor();
      await expect.poll(() => dialog.getByTestId('follow-up-status').first().textContent()).toBe('Open');
      await shot(page, 'follow-up-case-orgadmin-1440');

      // A call that reaches the patient: Contacted.
      await pick(page, 'follow-up-action-method', 'Call');
      await pick(page, 'follow-up-action-result', 'Reached');
      await submitAndWait(page);
      await expect.poll(() => dialog.getByTestId('follow-up-status').first().textContent()).toBe('Contacted');

      // A referral: Referred.
      await saveAction(page, 'Referral');
      await page.getByTestId('follow-up-action-facility').fill('Provincial Hospital');
      await page.getByTestId('follow-up-action-referral-date').fill(today());
      await submitAndWait(page);
      await expect.poll(() => dialog.getByTestId('follow-up-status').first().textContent()).toBe('Referred');

      // Seen at the hospital.
      await saveAction(page, 'Change status');
      await pick(page, 'follow-up-action-status', 'Seen');
      await submitAndWait(page);
      await expect.poll(() => dialog.getByTestId('follow-up-status').first().textContent()).toBe('Seen');

      // Closed with its outcome: the outcome is asked for first.
      await saveAction(page, 'Change status');
      await pick(page, 'follow-up-action-status', 'Closed');
      await page.getByTestId('follow-up-action-submit').click();
      await page.getByText(FOLLOW_UP_MESSAGES.outcomeRequired).waitFor();
      await pick(page, 'follow-up-action-outcome', 'Benign');
      await page.getByTestId('follow-up-action-diagnosis-date').fill(today());
      await page.getByTestId('follow-up-action-facility').fill('Provincial Hospital');
      await submitAndWait(page);
      await expect.poll(() => dialog.getByTestId('follow-up-status').first().textContent()).toBe('Closed');
      await expect.poll(() => dialog.getByTestId('follow-up-case-outcome').textContent()).toContain('Benign');
      expect(await dialog.getByTestId('follow-up-entry').count()).toBeGreaterThanOrEqual(6);

      const closed = await apiAs<TFollowUpRow>(page, `follow-up/${kase.id}/`);
      expect(closed).toMatchObject({ status: 'CLOSED', outcome: 'BENIGN' });
    } finally {
      await context.close();
    }
  });

  it('shows the worklist and a case at phone width', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await signInByEmail(page, 'orgadmin@demo.test');
      await page.goto('/follow-up?status=active');
      await page.getByTestId('follow-up-next-due').first().waitFor();
      await shot(page, 'follow-up-orgadmin-390');
      await page.getByTestId('follow-up-table').locator('tbody tr').first().click();
      await page.getByTestId('follow-up-case').waitFor();
      await shot(page, 'follow-up-case-orgadmin-390');
    } finally {
      await context.close();
    }
  });

  it('gives an ADMIN the organization filter, at 1440 and 390 px', async () => {
    for (const width of [1440, 390]) {
      const { context, page } = await newPage(browser, { width, height: width === 390 ? 844 : 900 });
      try {
        await signInByEmail(page, 'admin@demo.test');
        await page.goto('/follow-up');
        await page.getByTestId('follow-up-organization-filter').waitFor();
        await page.getByTestId('follow-up-next-due').first().waitFor();
        await shot(page, `follow-up-admin-${width}`);
        await page.getByTestId('follow-up-table').locator('tbody tr').first().click();
        await page.getByTestId('follow-up-case').waitFor();
        await shot(page, `follow-up-case-admin-${width}`);
      } finally {
        await context.close();
      }
    }
  });

  it('has no Follow-up entry for a cervical reviewer, and refuses the route', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signInByEmail(page, 'reviewer@demo.test');
      expect(await page.getByTestId('nav-follow-up').count()).toBe(0);
      await page.goto('/follow-up');
      await expect.poll(() => new URL(page.url()).pathname).not.toBe('/follow-up');
    } finally {
      await context.close();
    }
  });
});
