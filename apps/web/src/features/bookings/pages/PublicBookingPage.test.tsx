import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_MESSAGES, type TPublicBooking, type TPublicOrganization } from '@sc/shared/bookings';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { BOOKING_LANGUAGE_KEY, PublicBookingPage } from './PublicBookingPage.tsx';

const ORG: TPublicOrganization = {
  name: 'Rao Clinic',
  address: '1 Main Road, Pune',
  country_code: 'IN',
  timezone: 'Asia/Kolkata',
  price: 25000,
  currency: 'INR',
  allow_offline_payment: true,
  can_be_cancel_before: 24,
  available_days: [0, 1, 2, 3, 4, 5],
  total_bookings_per_slot: 2,
  languages: [{ iso_code: 'en', name: 'English' }],
};
const BOOKING: TPublicBooking = {
  token: 'bk1',
  first_name: 'Asha',
  last_name: 'Rao',
  status: 'PENDING_PAYMENT',
  start: '2026-03-03T03:30:00Z',
  end: '2026-03-03T04:30:00Z',
  price: 25000,
  currency: 'INR',
  organization: { name: ORG.name, address: ORG.address, timezone: ORG.timezone },
  can_cancel: true,
  cancel_before: '2026-03-02T03:30:00Z',
};
const VIEW = '/api/v1/appointment/org1/booking/bk1/';
const CANCEL = '/api/v1/appointment/org1/booking/bk1/cancel/';

function setup(booking: TPublicBooking) {
  const fetchMock = mockFetch({
    'GET /api/v1/appointment/org1/': { body: ORG },
    [`GET ${VIEW}`]: { body: booking },
    [`POST ${CANCEL}`]: {
      body: { ...booking, status: 'CANCELED', can_cancel: false, detail: BOOKING_MESSAGES.canceled },
    },
  });
  renderScanRoutes(makeUser('ADMIN'), '/book/org1/booking/bk1', {
    '/book/:token/booking/:booking': <PublicBookingPage />,
  });
  return fetchMock;
}
const cancelCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([u, init]) => String(u).endsWith('/cancel/') && init?.method === 'POST')
    .length;

afterEach(() => vi.unstubAllGlobals());

describe('PublicBookingPage: a booking by its token', () => {
  it('cancels only after the patient confirms, then says so', async () => {
    const user = userEvent.setup();
    const fetchMock = setup(BOOKING);
    await user.click(await screen.findByTestId('public-booking-cancel'));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel booking' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancelCalls(fetchMock)).toBe(0);
    await user.click(screen.getByTestId('public-booking-cancel'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    expect(await screen.findByTestId('public-booking-canceled')).toHaveTextContent(BOOKING_MESSAGES.canceled);
    expect(cancelCalls(fetchMock)).toBe(1);
  });

  it('names the cut-off when the booking can no longer be canceled', async () => {
    setup({ ...BOOKING, can_cancel: false });
    expect(await screen.findByTestId('public-booking-cancel-closed')).toHaveTextContent(
      BOOKING_MESSAGES.cancelTooLate(24),
    );
    expect(screen.queryByTestId('public-booking-cancel')).not.toBeInTheDocument();
  });
});

// ---- Issue 23 items 9 and 17: words instead of codes, in the patient's language ---------------------------------

const SPOKEN: TPublicOrganization = {
  ...ORG,
  // Yoruba has no catalogue: the page cannot speak it and does not offer it.
  languages: [
    { iso_code: 'en', name: 'English' },
    { iso_code: 'hi', name: 'Hindi' },
    { iso_code: 'yo', name: 'Yoruba' },
  ],
};
const DAY = '2026-03-03';
const SLOT = { start: BOOKING.start!, end: BOOKING.end!, capacity: 2, places_left: 2 };

function browserLanguages(languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
}

function setupFlow(org: TPublicOrganization, path = '/book/org1') {
  const fetchMock = mockFetch({
    'GET /api/v1/appointment/org1/': { body: org },
    'GET /api/v1/appointment/org1/date/': { body: [{ date: DAY, weekday: 1, places_left: 2 }] },
    'GET /api/v1/appointment/org1/slot/': { body: [SLOT] },
    'POST /api/v1/appointment/org1/booking/': {
      status: 201,
      body: {
        ...BOOKING,
        token: 'Zq3xT9bY2kLmN8pQ4rS7uV1wX5yA6cD0',
        detail: BOOKING_MESSAGES.createdPendingPayment,
      },
    },
    [`GET ${VIEW}`]: { body: BOOKING },
  });
  renderScanRoutes(makeUser('ADMIN'), path, {
    '/book/:token': <PublicBookingPage />,
    '/book/:token/booking/:booking': <PublicBookingPage />,
  });
  return fetchMock;
}

async function chooseSlot(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId(`public-day-${DAY}`));
  await user.click(await screen.findByTestId('public-slot'));
}

describe('PublicBookingPage: words, not codes (issue 23.9)', () => {
  it('confirms with the status in words and the booking’s page as a link, never the raw token', async () => {
    browserLanguages(['en-GB']);
    const user = userEvent.setup();
    setupFlow(ORG);
    await chooseSlot(user);
    // The mobile's hint names the country, not its ISO code.
    expect(screen.getByText('A mobile number in India')).toBeInTheDocument();
    expect(screen.queryByText(/of IN$/)).not.toBeInTheDocument();
    await user.type(screen.getByTestId('public-first-name'), 'Asha');
    await user.type(screen.getByTestId('public-mobile'), '98765 43210');
    await user.type(screen.getByTestId('public-age'), '34');
    await user.click(screen.getByTestId('public-booking-confirm'));
    const done = await screen.findByTestId('public-booking-done');
    expect(within(done).getByTestId('public-booking-status')).toHaveTextContent('Pending payment');
    expect(done).not.toHaveTextContent('PENDING_PAYMENT');
    expect(done).not.toHaveTextContent('Zq3xT9bY2kLmN8pQ4rS7uV1wX5yA6cD0');
    expect(within(done).getByTestId('public-booking-link')).toHaveAttribute(
      'href',
      '/book/org1/booking/Zq3xT9bY2kLmN8pQ4rS7uV1wX5yA6cD0',
    );
    // The slot's zone is named with its time.
    expect(done).toHaveTextContent(/GMT\+5:30/);
  });

  it('shows a booking’s status in words on its own page', async () => {
    browserLanguages(['en-GB']);
    setupFlow(ORG, '/book/org1/booking/bk1');
    expect(await screen.findByTestId('public-booking-status')).toHaveTextContent('Pending payment');
  });
});

describe('PublicBookingPage: in the patient’s language (issue 23.17)', () => {
  it('opens in English for an English browser and offers only the languages it can speak', async () => {
    browserLanguages(['en-US', 'en']);
    const user = userEvent.setup();
    setupFlow(SPOKEN);
    expect(await screen.findByText('1. Choose a day')).toBeInTheDocument();
    expect(screen.getByTestId('public-booking')).toHaveAttribute('lang', 'en');
    await user.click(screen.getByTestId('public-booking-language'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['English', 'हिन्दी']);
  });

  it('switches to Hindi: steps, field labels, dates, messages and the status; the choice is remembered', async () => {
    browserLanguages(['en-US']);
    const user = userEvent.setup();
    setupFlow(SPOKEN);
    await screen.findByText('1. Choose a day');
    await user.click(screen.getByTestId('public-booking-language'));
    await user.click(await screen.findByRole('option', { name: 'हिन्दी' }));
    expect(await screen.findByText('1. दिन चुनें')).toBeInTheDocument();
    expect(screen.getByTestId('public-booking')).toHaveAttribute('lang', 'hi');
    await chooseSlot(user);
    expect(screen.getByTestId('public-booking-zone')).toHaveTextContent('भारतीय मानक समय');
    // The chosen slot's day in Hindi (मंगलवार is Tuesday), in the clinic's zone.
    expect(screen.getByTestId('public-booking-chosen')).toHaveTextContent('मंगलवार');
    expect(screen.getByText('भारत का मोबाइल नंबर')).toBeInTheDocument();
    await user.click(screen.getByTestId('public-booking-confirm'));
    expect(await screen.findByText('अपना पहला नाम लिखें (केवल अक्षर)।')).toBeInTheDocument();
    expect(screen.getByText('कृपया सही फ़ोन नंबर लिखें।')).toBeInTheDocument();
    expect(localStorage.getItem(BOOKING_LANGUAGE_KEY)).toBe('hi');
  });

  it('opens in the browser’s language when the organization offers it', async () => {
    browserLanguages(['hi-IN', 'en']);
    setupFlow(SPOKEN, '/book/org1/booking/bk1');
    expect(await screen.findByTestId('public-booking-status')).toHaveTextContent('भुगतान बाकी');
    expect(screen.getByRole('button', { name: 'बुकिंग रद्द करें' })).toBeInTheDocument();
  });

  it('falls back to English for a browser language the organization does not offer', async () => {
    browserLanguages(['yo-NG', 'hi-IN']);
    setupFlow(ORG); // offers English only: no switcher, English although the browser also reads Hindi
    expect(await screen.findByText('1. Choose a day')).toBeInTheDocument();
    expect(screen.queryByTestId('public-booking-language')).not.toBeInTheDocument();
  });
});
