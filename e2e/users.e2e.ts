// Journeys of issue 7 (users): an ADMIN creates a technician with an e-mail in an organization; the technician
// follows the set-password link from the outbox and signs in with the new password; the ADMIN certifies them,
// transfers them to another organization and unassigns them. Every screen is checked with axe, at 1400 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { launch, newPage, readOutbox, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, pickOption, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Org = { id: number; name: string; can_create_organization: boolean };
type User = { id: number; email: string | null; organization: number | null; ibe_training_status: string };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('users', () => {
  it('creates a technician who sets a password from the outbox link, then certifies, transfers, unassigns and assigns them again (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const orgs = await apiAs<Paged<Org>>(page, 'organization/?limit=50&ordering=name');
    const [first, second] = orgs.results.filter((o) => !o.can_create_organization);
    if (!first || !second) throw new Error('the demo data needs two organizations that are not distributors');
    const stamp = Date.now();
    const firstName = 'Journey';
    const lastName = `Tech${stamp}`;
    const name = `${firstName} ${lastName}`;
    const email = `journey.${stamp}@example.org`;
    const find = async () => (await apiAs<Paged<User>>(page, `organization/user/?search=${encodeURIComponent(email)}`)).results[0];

    // The organization page's Users tab: the same list, embedded; Create starts in that organization.
    await page.goto(`/organization/${first.id}?tab=users`);
    await page.getByTestId('user-list').waitFor();
    await page.getByTestId('list-total').waitFor();
    await checkA11y(page, 'organization page, Users tab');
    await page.getByTestId('user-create').click();
    await page.getByTestId('user-form').waitFor();
    await page.getByTestId('user-submit').click();
    await page.getByText('This field is required.').first().waitFor();
    await snap(page, 'users-1-create-errors-1400');
    await checkA11y(page, 'Add User with errors');
    await page.getByTestId('user-first-name').fill(firstName);
    await page.getByTestId('user-last-name').fill(lastName);
    await page.getByTestId('user-email').fill(email);
    await expect(page.getByTestId('user-organization').inputValue()).resolves.toBe(first.name);
    await expect(page.getByTestId('user-type').inputValue()).resolves.toBe('Technician');
    await page.getByTestId('user-submit').click();
    await page.getByText(USER_MESSAGES.created).first().waitFor();
    await page.getByText(USER_MESSAGES.passwordLinkSent(email)).first().waitFor();
    const created = await find();
    expect(created?.organization).toBe(first.id);
    await page.getByText(name).waitFor();

    // The technician follows the link and signs in with the new password (a technician lands on user-delete).
    const mail = await readOutbox(email);
    const link = mail.find((m) => m.link)?.link;
    expect(link).toMatch(/\/reset-password\?token=/);
    const techSession = await newPage(browser);
    const linkUrl = new URL(link ?? '');
    await techSession.page.goto(`${linkUrl.pathname}${linkUrl.search}`);
    await techSession.page.getByTestId('reset-password').fill('Journey@2026');
    await techSession.page.getByTestId('reset-confirm').fill('Journey@2026');
    await techSession.page.getByTestId('reset-submit').click();
    await techSession.page.getByTestId('reset-success').waitFor();
    await techSession.page.goto('/login');
    await techSession.page.getByTestId('login-to-email').click();
    await techSession.page.getByTestId('login-email').fill(email);
    await techSession.page.getByTestId('login-password').fill('Journey@2026');
    await techSession.page.getByTestId('login-email-submit').click();
    await techSession.page.getByTestId('delete-account').waitFor();
    await techSession.context.close();

    // Certify from the details.
    await page.goto('/user?all=true');
    await page.getByTestId('list-search').fill(email);
    await page.getByRole('button', { name: `Actions for ${name}` }).waitFor();
    await snap(page, 'users-2-all-users-1400');
    await checkA11y(page, 'All Users');
    await rowAction(page, name, 'Details');
    await page.getByTestId('user-details').waitFor();
    await page.getByTestId('user-tutorials').or(page.getByText('No tutorials are published.')).first().waitFor();
    await snap(page, 'users-3-details-1400');
    await checkA11y(page, 'User Details');
    await page.getByTestId('user-certify').click();
    await page.getByText(USER_MESSAGES.certifyConfirm(name)).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByText(USER_MESSAGES.certified).first().waitFor();
    await eventually(async () => (await find())?.ibe_training_status === 'CERTIFIED');
    // Certified: the button goes.
    await eventually(async () => (await page.getByTestId('user-certify').count()) === 0);
    await page.keyboard.press('Escape');

    // Transfer to another organization.
    await rowAction(page, name, 'Transfer');
    await expect(page.getByTestId('user-transfer-submit').isDisabled()).resolves.toBe(true);
    await pickOption(page, 'user-transfer-organization', second.name, new RegExp(`^${escape(second.name)}`));
    await checkA11y(page, 'Transfer User');
    await page.getByTestId('user-transfer-submit').click();
    await page.getByText(USER_MESSAGES.transferred).first().waitFor();
    await eventually(async () => (await find())?.organization === second.id);
    await page.getByRole('link', { name: second.name }).first().waitFor();

    // Unassign.
    await rowAction(page, name, 'Unassign');
    await page.getByText(USER_MESSAGES.unassignConfirm(name)).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByText(USER_MESSAGES.unassigned).first().waitFor();
    await eventually(async () => (await find())?.organization === null);

    // The user is now among the Unassigned Users.
    await page.goto(`/user?unassign=true&search=${encodeURIComponent(email)}`);
    await page.getByRole('button', { name: `Actions for ${name}` }).waitFor();
    await expect(page.getByTestId('page-title').textContent()).resolves.toBe('Unassigned Users');
    await checkA11y(page, 'Unassigned Users');

    // Assign opens the edit dialog, where the organization is chosen (part 2 §4).
    await rowAction(page, name, 'Assign');
    await page.getByTestId('user-form').waitFor();
    await pickOption(page, 'user-organization', first.name, new RegExp(`^${escape(first.name)}`));
    await page.getByTestId('user-submit').click();
    await eventually(async () => (await find())?.organization === first.id);
    await context.close();
  });

  it('adds an organization to a manager and removes it again, one at a time (SUB_ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'subadmin@demo.test');
    const managers = await apiAs<Paged<User>>(page, 'organization/user/?search=manager%40demo.test');
    const manager = managers.results[0];
    if (!manager) throw new Error('the demo data needs manager@demo.test');
    const linksOf = async () =>
      (await apiAs<Paged<{ id: number; organization: number }>>(page, `user/organizations/?user=${manager.id}&limit=1000`)).results;
    const before = await linksOf();
    const orgs = await apiAs<Paged<Org>>(page, 'organization/?limit=100&ordering=name');
    const extra = orgs.results.find((o) => !before.some((l) => l.organization === o.id));
    if (!extra) throw new Error('every organization is linked already');

    await page.goto('/user?all=true&search=manager%40demo.test');
    await page.locator('[data-testid^="row-actions-"]').first().click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await page.getByTestId('user-links').waitFor();
    await expect(page.getByTestId('user-link-add').isDisabled()).resolves.toBe(true);
    await pickOption(page, 'user-link-picker', extra.name, new RegExp(`^${escape(extra.name)}`));
    await page.getByTestId('user-link-add').click();
    await page.getByText(USER_MESSAGES.linkAdded).first().waitFor();
    await eventually(async () => (await linksOf()).length === before.length + 1);
    await page.getByTestId(`user-link-remove-${extra.id}`).waitFor();
    await snap(page, 'users-4-manager-links-1400');
    await checkA11y(page, 'User Details of a manager, organization links');
    await page.getByTestId(`user-link-remove-${extra.id}`).click();
    await page.getByText(USER_MESSAGES.removeOrganizationConfirm(extra.name)).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await eventually(async () => (await linksOf()).length === before.length);
    await context.close();
  });

  it('opens a technician’s training report PDF in a new tab (ORG_ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    await page.goto('/user?all=true&search=technician%40demo.test');
    await page.locator('[data-testid^="row-actions-"]').first().click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const report = page.getByTestId('user-report-training');
    await report.waitFor();
    const [tab] = await Promise.all([context.waitForEvent('page'), report.click()]);
    await eventually(async () => tab.url().startsWith('blob:'));
    await context.close();
  });

  it.each(['admin', 'subadmin', 'distributor', 'manager', 'orgadmin'])(
    'shows the user list and a user’s details to %s at 1400 and 390 px',
    async (who) => {
      for (const viewport of [
        { width: 1400, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const { context, page } = await newPage(browser, viewport);
        await signInByEmail(page, `${who}@demo.test`);
        await page.goto('/user?all=true');
        await page.getByTestId('list-total').waitFor();
        await page.locator('[data-testid^="row-actions-"]').first().waitFor();
        await snap(page, `users-list-${who}-${viewport.width}`);
        await checkA11y(page, `All Users as ${who} at ${viewport.width}px`);
        await page.locator('[data-testid^="row-actions-"]').first().click();
        await page.getByRole('menuitem', { name: 'Details' }).click();
        await page.getByTestId('user-details').waitFor();
        await page.getByTestId('user-training').waitFor();
        await snap(page, `users-details-${who}-${viewport.width}`);
        await checkA11y(page, `User Details as ${who} at ${viewport.width}px`);
        await context.close();
      }
    },
  );
});
