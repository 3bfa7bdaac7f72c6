// Journeys of issue 7 (devices): create a device, link it to an organization, transfer it, unassign it; download
// device_details.csv and check its header and row count against the list. Screens at desktop and phone width.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEVICE_CSV_COLUMNS, DEVICE_MESSAGES } from '@sc/shared/devices';
import { launch, newPage, snap } from './browser.ts';
import { apiAs, eventually, pickOption, signInByEmail } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Device = { id: number; serial_number: string; organization: number | null; organization_name: string | null };
type Org = { id: number; name: string };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('devices', () => {
  it('creates a device, links it, transfers it and unassigns it (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const orgs = await apiAs<Paged<Org>>(page, 'organization/?limit=2&ordering=name');
    const [first, second] = orgs.results;
    if (!first || !second) throw new Error('the demo data needs two organizations');
    const serial = `E2E-${Date.now()}`;
    const find = async () => (await apiAs<Paged<Device>>(page, `device/?serial_number=${serial}`)).results[0];

    await page.goto('/device');
    await page.getByTestId('device-create').click();
    await page.getByTestId('device-serial').fill(serial);
    await page.getByTestId('device-submit').click();
    await page.getByText(DEVICE_MESSAGES.created).first().waitFor();

    await page.getByTestId('list-search').fill(serial);
    const actions = page.getByRole('button', { name: `Actions for ${serial}` });
    await actions.waitFor();
    await actions.click();
    await page.getByRole('menuitem', { name: 'Link Organization' }).click();
    await pickOption(page, 'device-organization-picker', first.name, new RegExp(`^${escape(first.name)}`));
    await page.getByTestId('device-link-submit').click();
    await page.getByText(DEVICE_MESSAGES.linked).first().waitFor();
    expect((await find())?.organization).toBe(first.id);
    await page.getByRole('link', { name: first.name }).waitFor();
    await snap(page, 'devices-linked-1400');

    await actions.click();
    await page.getByRole('menuitem', { name: 'Transfer' }).click();
    await pickOption(page, 'device-organization-picker', second.name, new RegExp(`^${escape(second.name)}`));
    await page.getByTestId('device-link-submit').click();
    await eventually(async () => (await find())?.organization === second.id);

    await actions.click();
    await page.getByRole('menuitem', { name: 'Unassign' }).click();
    await page.getByText(DEVICE_MESSAGES.unassignConfirm(serial)).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByText(DEVICE_MESSAGES.unassigned).first().waitFor();
    expect((await find())?.organization).toBeNull();
    await context.close();
  });

  it('downloads device_details.csv with the header and every row of the list (SUB_ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'subadmin@demo.test');
    await page.goto('/device?limit=20');
    await page.getByTestId('list-total').waitFor();
    const { count } = await apiAs<Paged<Device>>(page, 'device/?limit=1');
    expect(count).toBeGreaterThan(20);
    await page.getByTestId('list-total').getByText(`${count} items`).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('device-csv').click()]);
    // The server's name, with the day of the download (issue 23.14).
    expect(download.suggestedFilename()).toMatch(/^device_details_\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    // After the byte order mark; the time columns name the browser's zone.
    expect(lines[0]?.replace(/^\uFEFF/, '').replace(/ \([A-Za-z_/+-]+\)/g, '')).toBe(DEVICE_CSV_COLUMNS.join(','));
    expect(lines.length - 1).toBe(count);
    await context.close();
  });

  it('shows the device list to each role at desktop and phone width', async () => {
    const roles = ['admin', 'subadmin', 'distributor', 'manager'] as const;
    for (const role of roles) {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, `${role}@demo.test`);
        await page.goto('/device');
        await page.getByTestId('list-total').waitFor();
        await snap(page, `devices-${role}-${width}`);
        await context.close();
      }
    }
    // ORG_ADMIN has no Devices menu: its organization page's Devices tab.
    for (const width of [1400, 390]) {
      const { context, page } = await newPage(browser, { width, height: 900 });
      await signInByEmail(page, 'orgadmin@demo.test');
      const me = await apiAs<{ organization: number }>(page, 'user/');
      await page.goto(`/organization/${me.organization}?tab=devices`);
      await page.getByTestId('list-total').waitFor();
      expect(await page.getByTestId('device-create').count()).toBe(0);
      await snap(page, `devices-orgadmin-${width}`);
      await context.close();
    }
  });
});
