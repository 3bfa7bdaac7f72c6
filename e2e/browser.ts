// Chromium through playwright-core (Debian's /usr/bin/chromium; browsers cannot be downloaded here).
// Playwright gives each launch a fresh temporary profile.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject, onTestFailed } from 'vitest';

export const baseUrl = (): string => inject('baseUrl');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, timezoneId: 'Asia/Kolkata' });
  const page = await context.newPage();
  // A failing journey leaves a picture of where it stopped (e2e/screenshots/FAILED-<test>.png).
  onTestFailed(async ({ task }) => {
    if (!page.isClosed()) await snap(page, `FAILED-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`);
  });
  return { context, page };
}

/** Saves a screenshot under e2e/screenshots/ (ignored by git) for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = path.join(import.meta.dirname, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

export type OutboxMessage = { to: string; code: string | null; link: string | null; body: string };

export async function readOutbox(to: string): Promise<OutboxMessage[]> {
  const r = await fetch(`${baseUrl()}/api/v1/dev/outbox/?to=${encodeURIComponent(to)}`);
  if (!r.ok) throw new Error(`outbox answered ${r.status}`);
  return (await r.json()) as OutboxMessage[];
}
