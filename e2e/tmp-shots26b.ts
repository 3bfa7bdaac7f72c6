import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
for (const width of [1440, 390]) {
  const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 }, baseURL: 'http://127.0.0.1:5300' });
  await page.goto('/login');
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').fill('orgadmin@demo.test');
  await page.getByTestId('login-password').fill('Demo@2026');
  await page.getByTestId('login-email-submit').click();
  await page.getByTestId('nav-menu').first().waitFor({ timeout: 60000 });
  await page.goto('/patient');
  await page.getByTestId('patient-create').click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/work/shots/lead/orgadmin-${width}-patient-create.png`, fullPage: true });
  // The consent switch: turn it on and scroll to it.
  const consent = page.getByText('Reminder SMS', { exact: false }).first();
  if (await consent.count()) { await consent.scrollIntoViewIfNeeded(); await page.waitForTimeout(300); }
  await page.screenshot({ path: `/work/shots/lead/orgadmin-${width}-patient-create-consent.png` });
  await page.close();
}
await browser.close();
