// Journeys of issue 2: sign in by e-mail and by mobile code, role landings, and an expired session; issue 6: moving
// between the sign-in views (change number, use e-mail, browser Back). Every screen passes the accessibility check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { DEMO_ACCOUNTS } from '../apps/api/src/demo/accounts.ts';
import { launch, newPage, readOutbox, snap } from './browser.ts';
import { checkA11y, signInByEmail } from './helpers.ts';

const account = (email: string) => {
  const a = DEMO_ACCOUNTS.find((x) => x.email === email);
  if (!a) throw new Error(`no demo account ${email}`);
  return a;
};

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('sign-in', () => {
  it('shows the four login views', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('login-mobile-view').waitFor();
    await expect(page.getByTestId('login-country').inputValue()).resolves.toContain('+91');
    await snap(page, 'login-1-mobile');
    await checkA11y(page, 'login: mobile number');

    await page.getByTestId('login-mobile').fill('12');
    await page.getByTestId('login-mobile-submit').click();
    await page.getByText('Please enter a valid Phone Number.').waitFor();

    await page.getByTestId('login-to-email').click();
    await page.getByTestId('login-email-view').waitFor();
    await snap(page, 'login-3-email');
    await checkA11y(page, 'login: e-mail');

    await page.getByTestId('login-email').fill('nobody@demo.test');
    await page.getByTestId('login-password').fill('whatever1');
    await page.getByTestId('login-email-submit').click();
    await expect(page.getByTestId('login-error').textContent()).resolves.toContain(
      'There is no user corresponding to the given email.',
    );

    await page.getByTestId('login-forgot-link').click();
    await page.getByTestId('forgot-email').fill('orgadmin@demo.test');
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('login-notice').textContent()).resolves.toContain(
      'Password link sent to email orgadmin@demo.test.',
    );
    await snap(page, 'login-4-forgot');
    await checkA11y(page, 'login: forgot password');
    const mail = await readOutbox('orgadmin@demo.test');
    expect(mail[0]?.link).toMatch(/\/reset-password\?token=/);
    await context.close();
  });

  it('signs an ADMIN in by e-mail and shows the ADMIN menu', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('nav-menu').waitFor();
    for (const key of ['organization', 'language', 'tutorial', 'release-notes', 'booking', 'report']) {
      await expect(page.getByTestId(`nav-${key}`).isVisible(), key).resolves.toBe(true);
    }
    await page.getByTestId('user-card').click();
    await expect(page.getByTestId('user-card-role').textContent()).resolves.toBe('Super Admin');
    await snap(page, 'shell-admin');
    await checkA11y(page, 'shell as ADMIN, user card open');
    await context.close();
  });

  it('shows an ORG_ADMIN its own menu and organization', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'orgadmin@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('nav-menu').waitFor();
    await expect(page.getByTestId('nav-language').count()).resolves.toBe(0);
    await expect(page.getByTestId('nav-devices').count()).resolves.toBe(0);
    await page.getByTestId('user-card').click();
    await expect(page.getByTestId('user-card-role').textContent()).resolves.toBe('ORG Admin');
    await page.getByTestId('user-card-organizations').waitFor();
    await snap(page, 'shell-orgadmin');
    await checkA11y(page, 'shell as ORG_ADMIN, user card open');
    await context.close();
  });

  it('signs a TECHNICIAN in by mobile code read from the outbox and lands on user-delete', async () => {
    const tech = account('technician@demo.test');
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('login-mobile').fill(tech.mobile);
    await page.getByTestId('login-mobile-submit').click();
    await page.getByTestId('login-code-view').waitFor();
    await page.getByTestId('login-resend-countdown').waitFor();
    await snap(page, 'login-2-code');
    await checkA11y(page, 'login: code');

    const [sms] = await readOutbox(`+91-${tech.mobile}`);
    expect(sms?.code).toMatch(/^\d{6}$/);
    await page.getByTestId('login-code').fill(sms!.code!);
    await page.getByTestId('login-verify').click();
    await page.waitForURL('**/user-delete');
    await page.getByTestId('delete-account').waitFor();
    await snap(page, 'user-delete-technician');
    await checkA11y(page, 'user-delete as TECHNICIAN');
    await context.close();
  });

  it('lands a CERVAICAL_REVIEWER on cervaical with Organization and Cervical Exams in the menu', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'reviewer@demo.test');
    await page.waitForURL('**/cervaical');
    await expect(page.getByTestId('page-title').textContent()).resolves.toBe('Cervical Exams');
    await page.getByTestId('nav-organization').waitFor();
    await expect(page.getByTestId('nav-cervaical').textContent()).resolves.toBe('Cervical Exams');
    await expect(page.getByTestId('nav-language').count()).resolves.toBe(0);
    await checkA11y(page, 'cervaical as CERVAICAL_REVIEWER');
    await context.close();
  });

  it('returns to login after the session expires', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'manager@demo.test');
    await page.waitForURL('**/organization');
    // Revoke the session on the server, as an idle timeout would, then use the console.
    await page.evaluate(async () => {
      const token = localStorage.getItem('dashboard_token');
      await fetch('/api/v1/user/logout/', { method: 'POST', headers: { Authorization: `Token ${token}` } });
    });
    await page.reload();
    await page.getByTestId('session-expired-dialog').waitFor();
    await page.getByText('Expired User Session').waitFor();
    await checkA11y(page, 'Expired User Session dialog');
    // The sign-in page says why, and offers to return to the page (issue 23.11).
    await page.waitForURL(/\/login\?expired=1&next=%2Forganization$/);
    await page.getByText(AUTH_MESSAGES.sessionExpiredSignIn).waitFor();
    await expect(page.evaluate(() => localStorage.length)).resolves.toBe(0);
    await context.close();
  });

  it('moves between the sign-in views without dead ends: change number, use e-mail, browser Back', async () => {
    // Not the technician of the journey above: a number gets one code a minute.
    const tech = account('reviewer@demo.test');
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    // A page before the console, so that leaving the app by Back would show.
    await page.goto('/api/v1/timezone/');
    await page.goto('/login');
    await page.getByTestId('login-mobile').fill(tech.mobile);
    await page.getByTestId('login-mobile-submit').click();
    await page.getByTestId('login-code-view').waitFor();
    await snap(page, 'login-2-code-390');
    await checkA11y(page, 'login: code at 390 px');

    // Browser Back from the code screen: the number screen, still inside the app, the number kept.
    await page.goBack();
    await page.getByTestId('login-mobile-view').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect(page.getByTestId('login-mobile').inputValue()).resolves.toBe(tech.mobile);

    // Forward again, then Change number: back to the number screen.
    await page.goForward();
    await page.getByTestId('login-code-view').waitFor();
    await page.getByTestId('login-change-number').click();
    await page.getByTestId('login-mobile-view').waitFor();
    await expect(page.getByTestId('login-mobile').inputValue()).resolves.toBe(tech.mobile);

    // Change number went back in history: Forward shows the code screen again (no second code is asked for).
    // Use e-mail instead; Back from the e-mail screen returns to the number screen.
    await page.goForward();
    await page.getByTestId('login-code-view').waitFor();
    await page.getByTestId('login-code-to-email').click();
    await page.getByTestId('login-email-view').waitFor();
    expect(page.url()).toContain('view=email');
    await page.goBack();
    await page.getByTestId('login-mobile-view').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // One more Back leaves the console for the page before it: every view was a step inside the app.
    await page.goBack();
    await page.waitForURL('**/api/v1/timezone/');
    await context.close();
  });

  it('sends a signed-in user who opens login on to the console', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.waitForURL('**/dashboard');
    await page.goto('/login');
    await page.waitForURL('**/scan');
    await page.getByRole('heading', { level: 1, name: 'Breast Scans' }).waitFor();
    await checkA11y(page, 'breast scans as ADMIN');
    await context.close();
  });
});
