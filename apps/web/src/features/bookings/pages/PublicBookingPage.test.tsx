import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_MESSAGES, type TPublicBooking, type TPublicOrganization } from '@sc/shared/bookings';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { PublicBookingPage } from './PublicBookingPage.tsx';

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
