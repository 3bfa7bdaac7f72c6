// Journeys of issue 8 (patients): as ADMIN create a patient with the dialog (§5 errors first), edit it, transfer it
// to another organization and technician, delete it with the §8 confirm; axe on each screen. Then the list as
// DISTRIBUTOR_ADMIN, MANAGER and ORG_ADMIN (its organization's Patients tab) at desktop and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PATIENT_MESSAGES } from '@sc/shared/patients';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, pickOption, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Patient = { id: number; first_name: string; last_name: string; organization: number | null; technician: number | null; age: number };
type User = { id: number; first_name: string; last_name: string; username: string; organization: number | null; organization_data: { id: number; name: string } | null };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A valid technician of some organization other than `exceptOrg` (and its organization). */
async function someTechnician(page: Parameters<typeof apiAs>[0], exceptOrg?: number): Promise<User & { organization_data: { id: number; name: string } }> {
  const users = await apiAs<Paged<User>>(page, 'organization/user/?user_type=TECHNICIAN&is_valid=true&limit=100&ordering=first_name');
  const found = users.results.find((u) => u.organization_data && u.organization !== exceptOrg && u.first_name.length > 1);
  if (!found?.organization_data) throw new Error('the demo data needs technicians in two organizations');
  return found as User & { organization_data: { id: number; name: string } };
}

describe('patients', () => {
  it('creates a patient, edits, transfers and deletes it (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const tech = await someTechnician(page);
    const other = await someTechnician(page, tech.organization_data.id);
    const last = `E2e${Date.now().toString(36)}`;
    const find = async () => (await apiAs<Paged<Patient>>(page, `patient/?search=${last}`)).results[0];

    await page.goto('/patient');
    await page.getByTestId('patient-table').waitFor();
    await snap(page, 'patients-1-list-admin-1400');
    await checkA11y(page, 'All Patients (ADMIN)');

    await page.getByTestId('patient-create').click();
    await page.getByTestId('patient-submit').click();
    await page.getByText(PATIENT_MESSAGES.organizationRequired).waitFor();
    await page.getByText(PATIENT_MESSAGES.technicianRequired).waitFor();
    await snap(page, 'patients-2-create-errors-1400');
    await checkA11y(page, 'Create patient with errors');

    await page.getByTestId('patient-first-name').fill('Meera');
    await page.getByTestId('patient-last-name').fill(last);
    await page.getByTestId('patient-dob').fill('1985-06-01');
    await page.getByTestId('patient-mobile').fill('9876543210');
    await page.getByTestId('patient-email').fill('meera@example.org');
    await pickOption(page, 'patient-organization', tech.organization_data.name, new RegExp(`^${escape(tech.organization_data.name)}`));
    await pickOption(page, 'patient-technician', tech.first_name, new RegExp(`\\(${escape(tech.username)}\\)$`));
    await page.getByTestId('patient-submit').click();
    await page.getByText(PATIENT_MESSAGES.created).first().waitFor();
    const created = await find();
    expect(created).toMatchObject({ first_name: 'Meera', organization: tech.organization_data.id, technician: tech.id });

    await page.getByTestId('list-search').fill(last);
    const actions = page.getByRole('button', { name: `Actions for Meera ${last}` });
    await actions.waitFor();
    await actions.click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await page.getByTestId('patient-details').waitFor();
    await snap(page, 'patients-3-details-1400');
    await checkA11y(page, 'Patient details');
    await page.getByTestId('patient-edit').click();
    await page.getByTestId('patient-last-name').fill(`${last}x`);
    await page.getByTestId('patient-submit').click();
    await page.getByText(PATIENT_MESSAGES.updated).first().waitFor();
    await eventually(async () => (await find())?.last_name === `${last}x`);

    const renamed = page.getByRole('button', { name: `Actions for Meera ${last}x` });
    await renamed.click();
    await page.getByRole('menuitem', { name: 'Transfer' }).click();
    await page.getByTestId('patient-transfer-no-reports').waitFor();
    await pickOption(page, 'patient-transfer-organization', other.organization_data.name, new RegExp(`^${escape(other.organization_data.name)}`));
    await pickOption(page, 'patient-transfer-technician', other.first_name, new RegExp(`\\(${escape(other.username)}\\)$`));
    await snap(page, 'patients-4-transfer-1400');
    await checkA11y(page, 'Transfer Patient');
    await page.getByTestId('patient-transfer-submit').click();
    await page.getByText(PATIENT_MESSAGES.transferred).first().waitFor();
    await eventually(async () => (await find())?.organization === other.organization_data.id);

    await renamed.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText(PATIENT_MESSAGES.deleteConfirm(`Meera ${last}x`)).waitFor();
    await page.getByRole('button', { name: 'Delete' }).last().click();
    await page.getByText(PATIENT_MESSAGES.deleted).first().waitFor();
    await eventually(async () => (await find()) === undefined);
    await context.close();
  });

  for (const [email, role] of [
    ['admin@demo.test', 'admin'],
    ['distributor@demo.test', 'distributor'],
    ['manager@demo.test', 'manager'],
    ['orgadmin@demo.test', 'orgadmin'],
  ] as const) {
    it(`shows the patients to ${role} at 1400 and 390 px`, async () => {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, email);
        if (role === 'orgadmin') {
          const me = await apiAs<{ organization: number }>(page, 'user/');
          await page.goto(`/organization/${me.organization}?tab=patients`);
        } else {
          await page.goto('/patient');
        }
        await page.getByTestId('patient-table').waitFor();
        await page.getByRole('button', { name: /^Actions for / }).first().waitFor();
        await snap(page, `patients-list-${role}-${width}`);
        if (width === 1400) await checkA11y(page, `Patients (${role})`);
        await page.getByRole('button', { name: /^Actions for / }).first().click();
        await page.getByRole('menuitem', { name: 'Details' }).click();
        await page.getByTestId('patient-details').waitFor();
        await snap(page, `patients-details-${role}-${width}`);
        await context.close();
      }
    });
  }
});
