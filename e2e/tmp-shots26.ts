import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
const BASE = 'http://127.0.0.1:5300';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
async function shoot(email: string, width: number, steps: (p: import('playwright-core').Page, tag: string) => Promise<void>) {
  const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 }, baseURL: BASE });
  await page.goto('/login');
  await page.getByTestId('login-to-email').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill('Demo@2026');
  await page.getByTestId('login-email-submit').click();
  try { await page.getByTestId('nav-menu').first().waitFor({ timeout: 30000 }); } catch (e) { await page.screenshot({ path: `/work/shots/lead/fail-${email}-${width}.png` }); throw e; }
  await steps(page, `${email.split('@')[0]}-${width}`);
  await page.close();
}
const snap = async (p: import('playwright-core').Page, name: string) => {
  await p.waitForTimeout(1500);
  await p.screenshot({ path: `/work/shots/lead/${name}.png`, fullPage: true });
};
for (const width of [1440, 390]) {
  for (const who of ['admin@demo.test', 'orgadmin@demo.test']) {
    await shoot(who, width, async (p, tag) => {
      await p.goto('/dashboard');
      await snap(p, `${tag}-dashboard`);
    });
  }
  await shoot('orgadmin@demo.test', width, async (p, tag) => {
    await p.goto('/scan?patient=535');
    await p.waitForTimeout(2500);
    await snap(p, `${tag}-scan-list-patient`);
    const cell = p.getByTestId('scan-id-3219');
    if (await cell.count()) {
      await cell.first().click();
      await snap(p, `${tag}-scan-detail`);
    }
    await p.goto('/cervaical/20');
    await snap(p, `${tag}-cervical-detail`);
    await p.goto('/orca/4');
    await snap(p, `${tag}-orca-detail`);
  });
}
await browser.close();
