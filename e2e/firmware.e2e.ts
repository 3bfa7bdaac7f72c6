// Journeys of issue 11 (firmware): an ADMIN uploads an .ibe file in the Create Firmware modal (fields disabled until a
// file is chosen; a file without a version is refused and cleared) and downloads it back byte for byte; a device
// reads the latest version with its checksum and hears 304 when it already has it; the list and the Firmware Details
// modal for ADMIN and SUB_ADMIN at desktop and phone width; other roles are refused by the API and have no menu entry.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FIRMWARE_MESSAGES } from '@sc/shared/firmware';
import { baseUrl, launch, newPage, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Firmware = { id: number; version: string; path: string; url: string; checksum: string; size: number };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const actions = (page: Page, version: string) => page.getByRole('button', { name: `Actions for firmware ${version}` });

async function rowAction(page: Page, version: string, action: string): Promise<void> {
  await actions(page, version).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('Firmware', () => {
  it('uploads an .ibe file and downloads it back byte for byte (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const all = await apiAs<Paged<Firmware>>(page, 'firmware/?limit=1');
    await page.goto('/firmware');
    await page.getByTestId('list-total').getByText(`${all.count} items`).waitFor();
    await checkA11y(page, 'Firmware list');

    await page.getByTestId('firmware-create').click();
    const form = page.getByRole('dialog', { name: FIRMWARE_MESSAGES.createTitle });
    expect(await form.getByTestId('firmware-version').isDisabled()).toBe(true);
    expect(await form.getByTestId('firmware-submit').isDisabled()).toBe(true);
    const input = form.locator('input[type="file"]');

    // A first line without a version: 'file format invalid', and the file is cleared.
    await input.setInputFiles({ name: 'notes.ibe', mimeType: 'application/octet-stream', buffer: Buffer.from('release notes\n') });
    await form.getByText(FIRMWARE_MESSAGES.formatInvalid).waitFor();
    expect(await form.getByTestId('firmware-version').isDisabled()).toBe(true);

    const version = `v${90 + (Date.now() % 9)}.${Date.now() % 100_000}`;
    const lines = [version, '# e2e firmware image', ...Array.from({ length: 200 }, (_, i) => `${i}:${'0123456789abcdef'.repeat(4)}`)];
    const bytes = Buffer.from(`${lines.join('\r\n')}\n`, 'utf8');
    await input.setInputFiles({ name: 'e2e-release.ibe', mimeType: 'application/octet-stream', buffer: bytes });
    await expect.poll(() => form.getByTestId('firmware-version').inputValue()).toBe(version);
    expect(await form.getByTestId('firmware-path').inputValue()).toBe('firmware/e2e-release.ibe');
    await expect.poll(() => form.getByTestId('firmware-submit').isEnabled()).toBe(true);
    await checkA11y(page, 'Create Firmware');
    await snap(page, 'firmware-create-admin-1400');
    await form.getByTestId('firmware-submit').click();
    await page.getByText(FIRMWARE_MESSAGES.created).waitFor();
    await form.waitFor({ state: 'hidden' });

    // Newest first: the new version heads the list.
    await actions(page, version).waitFor();
    const [first] = (await apiAs<Paged<Firmware>>(page, 'firmware/?limit=1')).results;
    expect(first?.version).toBe(version);

    const downloading = page.waitForEvent('download');
    await rowAction(page, version, 'Download');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`firmware_${version}.ibe`);
    const saved = await download.path();
    expect(fs.readFileSync(saved).equals(bytes)).toBe(true);

    // The same version again: 'already exists' before create.
    await page.getByTestId('firmware-create').click();
    await input.setInputFiles({ name: 'again.ibe', mimeType: 'application/octet-stream', buffer: bytes });
    await form.getByText(FIRMWARE_MESSAGES.alreadyExists).waitFor();
    expect(await form.getByTestId('firmware-submit').isDisabled()).toBe(true);
    await context.close();
  }, 120_000);

  it('gives a device the latest firmware with its checksum, and 304 when it already has it', async () => {
    const token = await tokenFor('technician@demo.test');
    const headers = { Authorization: `Token ${token}` };
    const first = await fetch(`${baseUrl()}/api/v1/firmware/latest/`, { headers });
    expect(first.status).toBe(200);
    const latest = (await first.json()) as Firmware;
    expect(latest.checksum).toMatch(/^[0-9a-f]{64}$/);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${baseUrl()}/api/v1/firmware/latest/`, { headers: { ...headers, 'If-None-Match': etag! } });
    expect([200, 304]).toContain(again.status);
    if (again.status === 200) {
      // Another journey uploaded a newer version meanwhile: the answer changed with it.
      expect(((await again.json()) as Firmware).id).not.toBe(latest.id);
    }
    const file = await fetch(`${baseUrl()}${latest.url}`, { headers });
    const data = Buffer.from(await file.arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(data).digest('hex')).toBe(latest.checksum);
  }, 60_000);

  it('shows the firmware screens to ADMIN and SUB_ADMIN at desktop and phone width', async () => {
    for (const role of ['admin', 'subadmin'] as const) {
      for (const width of [1400, 390]) {
        const { context, page } = await newPage(browser, { width, height: 900 });
        await signInByEmail(page, `${role}@demo.test`);
        const [first] = (await apiAs<Paged<Firmware>>(page, 'firmware/?limit=1')).results;
        if (!first) throw new Error('the demo data needs firmware');
        await page.goto('/firmware');
        await actions(page, first.version).waitFor();
        const box = await actions(page, first.version).boundingBox();
        expect(box && box.x + box.width <= width).toBe(true);
        await snap(page, `firmware-list-${role}-${width}`);
        await rowAction(page, first.version, 'Details');
        const details = page.getByRole('dialog', { name: FIRMWARE_MESSAGES.detailsTitle });
        await expect.poll(() => details.getByTestId('firmware-checksum').inputValue()).toBe(first.checksum);
        if (width === 1400) await checkA11y(page, 'Firmware Details');
        await snap(page, `firmware-details-${role}-${width}`);
        await context.close();
      }
    }
  }, 180_000);

  it('keeps the firmware console from every other role, in the API as in the menu', async () => {
    for (const email of ['orgadmin@demo.test', 'distributor@demo.test', 'manager@demo.test']) {
      const token = await tokenFor(email);
      const r = await fetch(`${baseUrl()}/api/v1/firmware/`, { headers: { Authorization: `Token ${token}` } });
      expect(r.status, email).toBe(403);
    }
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    expect(await page.getByTestId('nav-menu').getByText('Firmware', { exact: true }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
