// Journey of issue 11 (languages and release notes): an ADMIN creates a language with an IBE app version, creates
// an ORCA app version, and edits it (read-only → Edit → Update); invalid fields are highlighted after a submit
// attempt; axe on each screen; screenshots at desktop and phone width. Other roles have no menu entry and the API
// refuses them (apps/api tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { APP_VERSION_MESSAGES } from '@sc/shared/app-versions';
import { LANGUAGE_MESSAGES } from '@sc/shared/languages';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Version = { id: number; name: string; code: string; notes: { note: string } };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('Languages and Release Notes', () => {
  it('creates a language and an ORCA app version, then edits the version (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    // A free ISO code (a retried run finds its own language from the first try).
    const taken = new Set((await apiAs<Paged<{ iso_code: string }>>(page, 'language/?limit=1000')).results.map((l) => l.iso_code));
    const iso = ['zu', 'xh', 'am', 'so', 'ig', 'ha', 'rw', 'ny'].find((c) => !taken.has(c));
    if (!iso) throw new Error('no free ISO code left for the journey');
    const stamp = String(Date.now()).slice(-6);

    // Languages: create with the ISO code rule checked first.
    await page.goto('/language');
    await page.getByTestId('language-table').getByRole('button', { name: /^Details of / }).first().waitFor();
    await checkA11y(page, 'Languages');
    await page.getByTestId('language-create').click();
    const languageDialog = page.getByRole('dialog', { name: 'Language details' });
    await languageDialog.getByTestId('language-name').fill(`Journey ${stamp}`);
    await languageDialog.getByTestId('language-iso-code').fill('zzz');
    await languageDialog.getByRole('button', { name: 'Create' }).click();
    await languageDialog.getByText(LANGUAGE_MESSAGES.isoInvalid).waitFor();
    await languageDialog.getByTestId('language-iso-code').fill(iso);
    await languageDialog.getByTestId('language-app-version').click();
    await page.getByRole('option').first().click();
    await languageDialog.getByTestId('language-tutorial').click();
    await checkA11y(page, 'Language details (create)');
    await snap(page, 'language-create-admin-1400');
    await languageDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText(LANGUAGE_MESSAGES.created).waitFor();
    await languageDialog.waitFor({ state: 'hidden' });
    const created = (await apiAs<Paged<{ iso_code: string; app_version: number | null; is_tutorial_available: boolean }>>(page, `language/?search=Journey%20${stamp}`)).results[0];
    expect(created).toMatchObject({ iso_code: iso, is_tutorial_available: true });
    expect(created?.app_version).not.toBeNull();

    // Release Notes – ORCA: create, then open it read-only, Edit, Update.
    await page.goto('/app-version?orca=true');
    await page.getByRole('heading', { name: 'Release Notes – ORCA' }).waitFor();
    await page.getByTestId('app-version-table').getByRole('button', { name: /^Details of version/ }).first().waitFor();
    await checkA11y(page, 'Release Notes');
    await page.getByTestId('app-version-create').click();
    const createDialog = page.getByRole('dialog', { name: 'Create app version' });
    await createDialog.getByRole('button', { name: 'Create' }).click();
    await createDialog.getByText(APP_VERSION_MESSAGES.nameRequired).waitFor();
    await createDialog.getByText(APP_VERSION_MESSAGES.noteRequired).waitFor();
    await createDialog.getByTestId('app-version-name').fill(`9.${stamp}`);
    await createDialog.getByTestId('app-version-code').fill(`j${stamp}`);
    await createDialog.getByTestId('app-version-tutorial').fill('4.5');
    await createDialog.getByTestId('app-version-note').fill('Journey release.\nSecond line.');
    await checkA11y(page, 'Create app version');
    await createDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText(APP_VERSION_MESSAGES.created).waitFor();
    await createDialog.waitFor({ state: 'hidden' });

    await page.getByTestId('list-search').fill(`j${stamp}`);
    await page.getByRole('button', { name: `Details of version 9.${stamp}` }).click();
    const details = page.getByRole('dialog', { name: 'App version details' });
    await details.getByTestId('app-version-edit').waitFor();
    expect(await details.getByTestId('app-version-note').getAttribute('readonly')).not.toBeNull();
    await checkA11y(page, 'App version details');
    await snap(page, 'app-version-details-admin-1400');
    await details.getByTestId('app-version-edit').click();
    await details.getByTestId('app-version-note').fill('Edited in the journey.');
    await details.getByRole('button', { name: 'Update' }).click();
    await page.getByText(APP_VERSION_MESSAGES.updated).waitFor();
    await details.waitFor({ state: 'hidden' });
    const [saved] = (await apiAs<Paged<Version>>(page, `app_version/?type=ORCA&search=j${stamp}`)).results;
    expect(saved).toMatchObject({ name: `9.${stamp}`, code: `j${stamp}`, notes: { note: 'Edited in the journey.' } });
    await context.close();
  });

  it('shows both pages at phone width (ADMIN)', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 900 });
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/language');
    await page.getByTestId('language-table').getByRole('button', { name: /^Details of / }).first().waitFor();
    await snap(page, 'languages-admin-390');
    await page.goto('/app-version?cervaical=true');
    await page.getByTestId('app-version-table').getByRole('button', { name: /^Details of version/ }).first().click();
    await page.getByRole('dialog', { name: 'App version details' }).getByTestId('app-version-edit').waitFor();
    await checkA11y(page, 'App version details (phone)');
    await snap(page, 'app-version-details-admin-390');
    await context.close();
  });
});
