// Sign-in and small page helpers shared by the journeys.
import type { Page } from 'playwright-core';
import { baseUrl } from './browser.ts';

export const PASSWORD = process.env.DEMO_PASSWORD ?? 'Demo@2026';

export async function signInByEmail(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-email-submit').click();
  await page.getByTestId('nav-menu').or(page.getByTestId('delete-account')).first().waitFor();
}

/** Picks an option of a Mantine Select/Autocomplete after typing `search` into it. */
export async function pickOption(page: Page, testId: string, search: string, option: string | RegExp): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

/** An API call with the token of a signed-in page (for reading state the UI does not show). */
export async function apiAs<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('dashboard_token'));
  const r = await fetch(`${baseUrl()}/api/v1/${path}`, { headers: { Authorization: `Token ${token}` } });
  if (!r.ok) throw new Error(`${path} answered ${r.status}`);
  return (await r.json()) as T;
}

/** A 1×1 PNG: enough for the server's content sniffing and the crop dialog. */
export function tinyPng(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
}

/**
 * Sets a Mantine Switch/Checkbox (its input is visually hidden, so it is clicked through the DOM). Switches whose
 * state follows a server answer change later: the caller checks the outcome.
 */
export async function setSwitch(page: Page, testId: string, on: boolean): Promise<void> {
  const input = page.getByTestId(testId);
  await input.waitFor({ state: 'attached' });
  if ((await input.isChecked()) !== on) await input.evaluate((el) => (el as HTMLInputElement).click());
}

/** Waits until `check` holds, polling (for lists that refetch after a filter changes). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}
