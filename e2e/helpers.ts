// Sign-in, accessibility and small page helpers shared by the journeys.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { E2E_WAIT_MS, baseUrl, settled } from './browser.ts';

export const PASSWORD = process.env.DEMO_PASSWORD ?? 'Demo@2026';

export async function signInByEmail(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-email-submit').click();
  await page.getByTestId('nav-menu').or(page.getByTestId('delete-account')).first().waitFor();
}

/**
 * Opens the impersonation modal from the user card's menu. The menu opens with a transition; on a loaded machine a
 * click on its item while it is still opening can be lost, so the menu is opened and the item clicked again (at most
 * three times) until the modal's search box shows.
 */
export async function openImpersonationModal(page: Page): Promise<void> {
  const search = page.getByTestId('impersonation-search');
  for (let attempt = 1; ; attempt++) {
    const item = page.getByTestId('user-card-impersonation');
    if (!(await item.isVisible())) await page.getByTestId('user-card').click();
    await item.click();
    try {
      await search.waitFor({ timeout: 8_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Picks an option of a Mantine Select/Autocomplete after typing `search` into it. */
export async function pickOption(
  page: Page,
  testId: string,
  search: string,
  option: string | RegExp,
): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * A session token for a demo account by e-mail and password through the API (no SMS code: journeys that need a
 * device's token must not spend the account's code resend and hourly limits, which other journeys use).
 */
export async function tokenFor(email: string): Promise<string> {
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const r = await fetch(`${baseUrl()}/api/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as T;
  };
  const { id_token } = await post<{ id_token?: string }>('auth/password/', { email, password: PASSWORD });
  if (!id_token) throw new Error(`${email} needs a second factor: no token without a code`);
  return (await post<{ token: string }>('user/login/', { id_token })).token;
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
export async function eventually(check: () => Promise<boolean>, timeoutMs = E2E_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING_IMPACTS = new Set(['serious', 'critical']);

type A11yFinding = {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; html: string; summary: string }[];
};

/**
 * Runs axe-core on the screen as it is now and fails on serious and critical violations, one readable line
 * per element; also fails on a heading nested inside another heading (axe has no rule for it). Called for
 * every screen the journeys visit (dialogs included: axe checks the whole document).
 */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  // Let dialogs and menus finish their transitions: half-faded text would read as low contrast.
  await settled(page);
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') refuses an inline <script>
  // (page.addScriptTag), and a test must not loosen it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const { findings, nestedHeadings } = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: { resultTypes: string[] }) => Promise<AxeResults> };
    };
    // Only violations are read: axe still runs every rule and lists every violating node, but builds selectors for
    // one node of each passed or incomplete rule instead of all of them (about a third of the CPU per call).
    const results = await axe.run(document, { resultTypes: ['violations'] });
    const nested = Array.from(document.querySelectorAll(':is(h1,h2,h3,h4,h5,h6) :is(h1,h2,h3,h4,h5,h6)')).map(
      (el) =>
        `<${el.tagName.toLowerCase()}> "${el.textContent?.trim() ?? ''}" inside <${el.parentElement?.closest('h1,h2,h3,h4,h5,h6')?.tagName.toLowerCase() ?? '?'}>`,
    );
    return {
      nestedHeadings: nested,
      findings: results.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({
          target: n.target.join(' '),
          html: n.html.slice(0, 160),
          summary: n.failureSummary ?? '',
        })),
      })),
    };
  });
  const failing = (findings as A11yFinding[]).filter((f) => FAILING_IMPACTS.has(f.impact));
  const lines = failing.flatMap((f) => [
    `  [${f.impact}] ${f.rule}: ${f.help} (${f.helpUrl})`,
    ...f.nodes.map((n) => `      ${n.target}  ${n.html}\n        ${n.summary.replace(/\n/g, '\n        ')}`),
  ]);
  lines.push(...nestedHeadings.map((h) => `  [serious] nested-heading: ${h}`));
  if (lines.length > 0) {
    throw new Error(`Accessibility check of "${screen}" failed:\n${lines.join('\n')}`);
  }
}
