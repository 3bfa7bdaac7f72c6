// Chromium through playwright-core (Debian's /usr/bin/chromium; browsers cannot be downloaded here).
// Playwright gives each launch a fresh temporary profile.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject, onTestFailed } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

/** This worker's server (global-setup.ts starts one per worker). */
export const baseUrl = (): string => {
  const urls = inject('baseUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return urls[(worker - 1) % urls.length] ?? inject('baseUrl');
};

/**
 * How long a journey waits for a condition (an element, a list that refetches, a polled value) before it fails: one
 * budget for every wait, set here and in vitest.config.ts (expect.poll), not per call. Waits end as soon as their
 * condition holds, so only a failing one lasts this long; at a load average of 20+ on 2 cores conditions that do
 * hold were seen to take 10–20 s.
 */
export const E2E_WAIT_MS = 45_000;

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export async function newPage(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, timezoneId: 'Asia/Kolkata' });
  // Playwright's own default (30 s) for every action and wait of the page, as one budget with the others.
  context.setDefaultTimeout(E2E_WAIT_MS);
  const page = await context.newPage();
  // A failing journey leaves a picture of where it stopped (e2e/screenshots/FAILED-<test>.png).
  onTestFailed(async ({ task }) => {
    if (!page.isClosed()) await snap(page, `FAILED-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`);
  });
  return { context, page };
}

/**
 * Waits until the page's transitions and finite animations (a dialog or menu fading in, a notification sliding)
 * have finished, instead of sleeping a fixed time: the page must have had no running finite animation for
 * `quietMs` in a row. A single check is not enough: Mantine starts a dialog's fade a frame or more after it mounts
 * (later on a loaded machine), and a check in that gap saw half-faded text as low contrast. Endless animations
 * (loaders) are ignored; after `timeoutMs` it goes on regardless.
 */
export async function settled(page: Page, timeoutMs = 2_000, quietMs = 200): Promise<void> {
  await page
    .evaluate(
      async ({ timeoutMs, quietMs }) => {
        const busy = () =>
          document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
        const start = performance.now();
        let quietSince = start;
        while (performance.now() - start < timeoutMs) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (busy()) quietSince = performance.now();
          else if (performance.now() - quietSince >= quietMs) return;
        }
      },
      { timeoutMs, quietMs },
    )
    .catch(() => undefined);
}

/** Saves a screenshot under e2e/screenshots/ (ignored by git) for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = path.join(import.meta.dirname, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

export type OutboxMessage = { to: string; code: string | null; link: string | null; body: string };

export async function readOutbox(to: string): Promise<OutboxMessage[]> {
  const r = await fetch(`${baseUrl()}/api/v1/dev/outbox/?to=${encodeURIComponent(to)}`);
  if (!r.ok) throw new Error(`outbox answered ${r.status}`);
  return (await r.json()) as OutboxMessage[];
}
