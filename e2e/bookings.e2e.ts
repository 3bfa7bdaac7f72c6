// Journey of issue 12 (bookings): a patient books a slot on the public page at phone width (no sign-in), the
// booking appears in the console's Booking list, and an ADMIN records an offline payment and completes it in the
// Booking modal; screenshots of the public page and the console at desktop and phone width, axe on each screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { getExampleNumber, type CountryCode } from 'libphonenumber-js/mobile';
import examples from 'libphonenumber-js/mobile/examples';
import { BOOKING_MESSAGES } from '@sc/shared/bookings';
import { BOOKING_STATUS_LABELS } from '@sc/shared/labels';
import { baseUrl, launch, newPage, readOutbox, snap } from './browser.ts';
import { apiAs, checkA11y, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Org = {
  id: number;
  name: string;
  is_booking_enabled: boolean;
  allow_offline_payment: boolean;
  price: number | null;
  country_code: string | null;
};
type Booking = { id: number; first_name: string; status: string; mobile: string };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function api<T>(token: string, path: string): Promise<T> {
  const r = await fetch(`${baseUrl()}/api/v1/${path}`, { headers: { Authorization: `Token ${token}` } });
  if (!r.ok) throw new Error(`${path} answered ${r.status}`);
  return (await r.json()) as T;
}

describe('Bookings', () => {
  it('a patient books on a phone; staff find it, record an offline payment and complete it', async () => {
    const admin = await tokenFor('admin@demo.test');
    // The demo's booking organizations are those with bookings; the first priced one with a country.
    const demoBookings = await api<Paged<{ organization: number }>>(admin, 'booking/?limit=200');
    let org: Org | undefined;
    for (const id of [...new Set(demoBookings.results.map((b) => b.organization))]) {
      const candidate = await api<Org>(admin, `organization/${id}/`);
      if (candidate.is_booking_enabled && (candidate.price ?? 0) > 0 && candidate.country_code) {
        org = candidate;
        if (candidate.allow_offline_payment) break;
      }
    }
    if (!org) throw new Error('the demo data needs a priced booking organization');
    if (!org.allow_offline_payment) {
      // The clinic takes payment at the desk: switched on as its ADMIN would in the organization form.
      const r = await fetch(`${baseUrl()}/api/v1/organization/${org.id}/`, {
        method: 'PATCH',
        headers: { Authorization: `Token ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ allow_offline_payment: true }),
      });
      expect(r.status).toBe(200);
    }
    const link = await api<{ token: string; path: string }>(admin, `booking/link/${org.id}/`);
    const example = getExampleNumber(org.country_code as CountryCode, examples);
    if (!example) throw new Error(`no example mobile for ${org.country_code}`);
    const mobile = example.nationalNumber;
    const firstName = `Journey${'abcdefghij'.charAt(Date.now() % 10)}${'klmnopqrst'.charAt(Math.floor(Date.now() / 10) % 10)}`;

    // The patient, on a phone, without signing in.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.page.goto(link.path);
    await phone.page.getByTestId('public-booking-name').filter({ hasText: org.name }).waitFor();
    await phone.page.locator('[data-testid^="public-day-"]:not([disabled])').first().click();
    await phone.page.getByText(/\d+ left$/).first().click();
    await phone.page.getByTestId('public-booking-confirm').waitFor();
    // A bad mobile is refused on the field before anything is sent.
    await phone.page.getByTestId('public-first-name').fill(firstName);
    await phone.page.getByTestId('public-last-name').fill('Patient');
    await phone.page.getByTestId('public-mobile').fill('12');
    await phone.page.getByTestId('public-age').fill('41');
    await phone.page.getByTestId('public-booking-confirm').click();
    await phone.page.getByText('Please enter a valid Phone Number.').waitFor();
    await checkA11y(phone.page, 'Public booking page');
    await snap(phone.page, 'booking-public-form-390');
    await phone.page.getByTestId('public-mobile').fill(mobile);
    await phone.page.getByTestId('public-booking-confirm').click();
    await phone.page.getByTestId('public-booking-done').waitFor();
    await phone.page.getByText(BOOKING_MESSAGES.createdPendingPayment).waitFor();
    // No raw token on screen: the booking's own page is a link, its token only in the address.
    const pending = BOOKING_STATUS_LABELS.PENDING_PAYMENT;
    await phone.page.getByTestId('public-booking-status').filter({ hasText: pending }).waitFor();
    const bookingHref = (await phone.page.getByTestId('public-booking-link').getAttribute('href')) ?? '';
    const bookingToken = bookingHref.split('/booking/')[1] ?? '';
    expect(bookingToken.length).toBeGreaterThan(20);
    await snap(phone.page, 'booking-public-done-390');
    await phone.context.close();

    // The confirmation SMS carries the view/cancel link.
    const bookings = await api<Paged<Booking>>(admin, `booking/?search=${firstName}`);
    expect(bookings.count).toBe(1);
    const booking = bookings.results[0]!;
    expect(booking.status).toBe('PENDING_PAYMENT');
    const sms = await readOutbox(booking.mobile);
    expect(sms.some((m) => m.link?.endsWith(`/booking/${bookingToken}`))).toBe(true);

    // Staff: the Booking list, the modal, an offline payment, then COMPLETED.
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const all = await apiAs<Paged<Booking>>(page, 'booking/?limit=1');
    await page.goto('/booking');
    await page.getByTestId('list-total').getByText(`${all.count} items`).waitFor();
    await checkA11y(page, 'Booking list');
    await snap(page, 'booking-list-admin-1400');
    await page.goto(`/booking?search=${firstName}`);
    await page.getByText(`${firstName} Patient`).waitFor();
    await page.getByTestId(`row-actions-${booking.id}`).click();
    await page.getByTestId('row-action-details').click();
    const dialog = page.getByTestId('booking-dialog');
    await dialog.getByTestId('booking-status').filter({ hasText: BOOKING_STATUS_LABELS.PENDING_PAYMENT }).waitFor();
    await page.getByTestId('booking-payment-reference').fill('RCPT-0042');
    await checkA11y(page, 'Booking modal');
    await page.getByTestId('booking-payment-save').click();
    await page.getByText(BOOKING_MESSAGES.paymentRecorded).waitFor();
    await dialog.getByTestId('booking-status').filter({ hasText: BOOKING_STATUS_LABELS.PAID }).waitFor();
    await dialog.getByTestId('booking-payment').filter({ hasText: 'RCPT-0042' }).waitFor();
    await snap(page, 'booking-modal-paid-admin-1400');
    await page.getByTestId('booking-move-COMPLETED').click();
    await dialog.getByTestId('booking-status').filter({ hasText: BOOKING_STATUS_LABELS.COMPLETED }).waitFor();
    await page.keyboard.press('Escape');
    // The list refreshed: the row shows Completed.
    const listed = page.getByTestId('booking-list').getByTestId('booking-status');
    await listed.filter({ hasText: BOOKING_STATUS_LABELS.COMPLETED }).waitFor();
    const done = await apiAs<Booking>(page, `booking/${booking.id}/`);
    expect(done.status).toBe('COMPLETED');

    // The organization's Bookings tab: the public link with its QR code.
    await page.goto(`/organization/${org.id}?tab=bookings`);
    await page.getByTestId('booking-qr').waitFor();
    await page.getByTestId('booking-page-url').filter({ hasText: link.path }).waitFor();
    await snap(page, 'booking-organization-tab-admin-1400');
    await context.close();

    // The console at phone width.
    const small = await newPage(browser, { width: 390, height: 844 });
    await signInByEmail(small.page, 'admin@demo.test');
    await small.page.goto('/booking');
    await small.page.getByTestId('list-total').waitFor();
    await snap(small.page, 'booking-list-admin-390');
    await small.context.close();
  });
});
