// Journeys of issue 3: create an organization with logo, consent languages and a webhook as ADMIN; edit it as
// DISTRIBUTOR_ADMIN; the list's filters and custom range; references; impersonation; webhook delivery.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, eventually, openImpersonationModal, pickOption, setSwitch, signInByEmail, tinyPng } from './helpers.ts';

type Received = { authorization: string | undefined; event: string | undefined; body: { id?: number } };
type Paged<T> = { count: number; results: T[] };
type Org = {
  id: number;
  name: string;
  parent: number | null;
  webhook_switch: boolean;
  webhook_url: string | null;
  localize: Record<string, { ibe_consent_form: string[] }>;
  ibe_consent_form: string[];
  company_info: { name?: string; profile_image_path?: string | null; city?: string };
};

let browser: Browser;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  browser = await launch();
  // The organization's webhook receiver, on loopback (the server runs with WEBHOOK_ALLOW_PRIVATE=true).
  receiver = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      received.push({
        authorization: req.headers.authorization,
        event: req.headers['x-webhook-event'] as string | undefined,
        body: JSON.parse(data || '{}') as { id?: number },
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/scans`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function findOrganization(page: Page, name: string): Promise<Org> {
  const list = await apiAs<Paged<{ id: number; name: string }>>(
    page,
    `organization/?search=${encodeURIComponent(name)}`,
  );
  const hit = list.results.find((o) => o.name === name);
  if (!hit) throw new Error(`organization ${name} not found`);
  return apiAs<Org>(page, `organization/${hit.id}/`);
}

const NEW_ORG = 'E2E Clinic Baner';

describe('organizations', () => {
  it('lets an ADMIN create an organization with a logo, consent languages and a webhook', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/organization?create=true');
    await page.getByTestId('org-form-dialog').getByText('Create Organization').waitFor();

    await page.getByTestId('org-name').fill(NEW_ORG);
    await pickOption(page, 'org-parent', 'Arogya Health', /Arogya Health Network/);
    // The organization's address has a required country (issue 6).
    await pickOption(page, 'org-country', 'India', /^India$/);
    await page.getByTestId('org-state').fill('Maharashtra');
    await page.getByTestId('org-address-1').fill('12 Baner Road');
    await page.getByTestId('org-address-3').fill('Pune');
    await page.getByTestId('org-zipcode').fill('411045');
    // Auto-copy into company info (part 1 §4).
    await expect(page.getByTestId('org-company-name').inputValue()).resolves.toBe(NEW_ORG);
    await expect(page.getByTestId('org-company-city').inputValue()).resolves.toBe('Pune');
    await page.getByTestId('org-company-email').fill('baner@clinic.org');
    await page.getByTestId('org-company-mobile').fill('9876543210');

    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('org-logo-upload').click();
    await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByTestId('crop-save').waitFor();
    await snap(page, 'org-crop-dialog');
    await checkA11y(page, 'crop dialog');
    await page.getByTestId('crop-save').click();
    await page.getByTestId('org-logo-preview').locator('img').waitFor();

    await page.getByTestId('org-consent-0').fill('I agree to the breast examination\nand to the report.');
    await page.getByTestId('org-language-setting').click();
    await page.getByTestId('language-add').click();
    await pickOption(page, 'language-row-0-language', 'Span', 'Spanish');
    await page.getByTestId('language-row-0-ibe_consent_form-0').fill('Acepto el examen de mama.');
    await page.getByTestId('language-row-0-cervaical_consent_form-0').fill('Acepto el examen cervical.');
    await page.getByTestId('language-row-0-orca_consent_form-0').fill('Acepto el examen oral.');
    await snap(page, 'org-language-dialog');
    await checkA11y(page, 'language setting dialog');
    await page.getByTestId('language-submit').click();
    await page.getByTestId('language-submit').waitFor({ state: 'detached' });

    await page.getByTestId('org-section-webhook-toggle').click();
    await page.getByTestId('org-webhook-url').fill(receiverUrl);
    await page.getByTestId('org-webhook-token').fill('e2e-secret');
    await setSwitch(page, 'org-webhook-switch', true);
    await snap(page, 'org-create-filled');
    await checkA11y(page, 'create organization dialog, filled');
    await page.getByTestId('org-form-submit').click();
    await page.getByText('Organization created Successfully').waitFor();
    await checkA11y(page, 'success alert');

    const org = await findOrganization(page, NEW_ORG);
    const parent = await findOrganization(page, 'Arogya Health Network');
    expect(org.parent).toBe(parent.id);
    expect(org.company_info.profile_image_path).toMatch(/^companylogo\//);
    expect(org.ibe_consent_form).toEqual(['I agree to the breast examination and to the report.']);
    expect(org.localize.es?.ibe_consent_form).toEqual(['Acepto el examen de mama.']);
    expect(org.webhook_switch).toBe(true);
    expect(org.webhook_url).toBe(receiverUrl);
    await context.close();
  });

  it('lets the DISTRIBUTOR_ADMIN above it edit that organization', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'distributor@demo.test');
    const org = await findOrganization(page, NEW_ORG);
    await page.goto(`/organization/${org.id}?edit=true`);
    await page.getByTestId('org-form-dialog').getByText('Edit Organization').waitFor();
    await expect(page.getByTestId('org-name').inputValue()).resolves.toBe(NEW_ORG);
    // Admin-only flags are shown read-only to a distributor.
    await expect(
      page.getByTestId('org-flag-is_storage_optimised').getAttribute('data-readonly'),
    ).resolves.toBe('true');
    await page.getByTestId('org-name').fill(`${NEW_ORG} Central`);
    await snap(page, 'org-edit-distributor');
    await checkA11y(page, 'edit organization dialog as DISTRIBUTOR_ADMIN');
    await page.getByTestId('org-form-submit').click();
    await page.getByText('Organization updated Successfully').waitFor();
    const saved = await apiAs<Org>(page, `organization/${org.id}/`);
    expect(saved.name).toBe(`${NEW_ORG} Central`);
    await context.close();
  });

  it('filters the list by type and by a custom range, keeping the state in the URL', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await checkA11y(page, 'dashboard as ADMIN');
    await page.goto('/organization');
    await page.getByTestId('organization-table').waitFor();
    await checkA11y(page, 'organization list as ADMIN');
    await page.getByTestId('organization-filter').click();
    await page.getByRole('option', { name: 'Distributors' }).click();
    await page.waitForURL(/filter=distributor/);
    // Every row of the refetched page is a distributor.
    const table = page.getByTestId('organization-table');
    await eventually(async () => {
      const rows = await table.locator('tbody tr').count();
      return rows > 0 && (await table.locator('[data-testid^="distributor-badge-"]').count()) === rows;
    });

    await page.getByTestId('period-tab-custom_range').click();
    await page.getByTestId('date-range-confirm').waitFor();
    await snap(page, 'org-list-custom-range');
    await checkA11y(page, 'date-range dialog');
    await page.getByTestId('date-range-confirm').click();
    await page.waitForURL(/from=\d{4}-\d{2}-\d{2}/);
    expect(page.url()).toMatch(/to=\d{4}-\d{2}-\d{2}/);
    // The view survives a reload.
    await page.reload();
    await page.getByTestId('organization-table').waitFor();
    await expect(page.getByTestId('organization-filter').inputValue()).resolves.toBe('Distributors');
    await snap(page, 'org-list-filtered');
    await checkA11y(page, 'organization list, filtered');
    await context.close();
  });

  it('adds a reference and switches it off from the references dialog', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    const org = await findOrganization(page, "Sunrise Women's Clinic");
    await page.goto('/organization');
    await page.getByTestId(`row-actions-${org.id}`).click();
    await page.getByTestId('row-action-reference').click();
    await page.getByTestId('reference-add').waitFor();
    await page.getByTestId('reference-add').click();
    await page.getByTestId('reference-name').fill('   ');
    await page.getByTestId('reference-submit').click();
    await page
      .getByText(/This field is required|Only alphabets/)
      .first()
      .waitFor();
    await page.getByTestId('reference-name').fill('E2E Screening Camp');
    await page.getByTestId('reference-submit').click();
    await page.getByTestId('reference-submit').waitFor({ state: 'detached' });

    const refs = await apiAs<Paged<{ id: number; name: string }>>(
      page,
      `organization/reference/?organization=${org.id}&search=E2E%20Screening`,
    );
    const ref = refs.results[0]!;
    await setSwitch(page, `reference-toggle-${ref.id}`, false);
    await page.getByText('Reference inactivated Successfully').waitFor();
    await expect(page.getByTestId(`reference-status-${ref.id}`).textContent()).resolves.toMatch(/Inactive/i);
    await snap(page, 'references-dialog');
    await checkA11y(page, 'references dialog');
    await context.close();
  });

  it('lets an ADMIN impersonate an ORG_ADMIN and come back', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const users = await apiAs<Paged<{ id: number }>>(page, 'organization/user/?search=orgadmin%40demo.test');
    const target = users.results[0]!;
    await openImpersonationModal(page);
    await page.getByTestId('impersonation-search').fill('orgadmin');
    await page.getByTestId(`impersonate-${target.id}`).waitFor();
    await checkA11y(page, 'impersonation modal');
    await page.getByTestId(`impersonate-${target.id}`).click();
    await page.getByTestId('impersonation-banner').waitFor();
    await expect(page.getByTestId('impersonation-seen-as').textContent()).resolves.toContain('ORG Admin');
    await snap(page, 'impersonation-banner');
    await checkA11y(page, 'impersonation banner');
    await setSwitch(page, 'impersonation-switch', false);
    await page.getByTestId('impersonation-banner').waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('user-card').click();
    await expect(page.getByTestId('user-card-role').textContent()).resolves.toBe('Super Admin');
    await context.close();
  });

  it("delivers an organization's previous scans to its webhook receiver", async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    // A clinic with scans, not in booking mode (booking mode hides the webhook section) and without a webhook yet
    // (a saved URL opens the section by itself). The demo's Arogya Clinic Pune now takes bookings.
    const org = await findOrganization(page, 'Arogya Clinic Nagpur');
    await page.goto(`/organization/${org.id}?edit=true`);
    await page.getByTestId('org-form-dialog').getByText('Edit Organization').waitFor();
    await page.getByTestId('org-section-webhook-toggle').click();
    await page.getByTestId('org-webhook-url').fill(receiverUrl);
    await page.getByTestId('org-webhook-token').fill('nagpur-secret');
    await setSwitch(page, 'org-webhook-switch', true);
    await page.getByTestId('org-form-submit').click();
    await page.getByText('Organization updated Successfully').waitFor();

    await page.goto(`/organization/${org.id}?edit=true`);
    // With a saved URL the webhook section opens by itself.
    await page.getByTestId('org-send-previous-scans').click();
    await page.getByText('Organization Previous Scans Webhook Successfully').waitFor();

    const deadline = Date.now() + 40_000;
    while (!received.some((r) => r.authorization === 'Token nagpur-secret') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
    }
    const delivered = received.filter((r) => r.authorization === 'Token nagpur-secret');
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered[0]?.event).toBe('scan.created');
    expect(typeof delivered[0]?.body.id).toBe('number');
    await context.close();
  });
});
