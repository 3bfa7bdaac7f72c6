import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_MESSAGES, type TBooking } from '@sc/shared/bookings';
import { SEARCH_TOO_LONG_MESSAGE } from '@sc/shared/list';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { BookingListPage } from '../pages/BookingListPage.tsx';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { BookingList, STATUS_UNDER_NAME_QUERY } from './BookingList.tsx';
import { matchMediaFor } from '../../../test/media.ts';

const LIST = '/api/v1/booking/';
const booking = (id: number, over: Partial<TBooking> = {}): TBooking => ({
  id,
  token: `tok${id}`,
  first_name: 'Asha',
  last_name: 'Rao',
  mobile: '+91-9876500001',
  email: 'asha@example.com',
  age: 34,
  slot: 7,
  slot_data: { id: 7, start: '2026-03-03T03:30:00Z', end: '2026-03-03T04:30:00Z' },
  organization: 2,
  organization_data: { id: 2, name: 'Rao Clinic', timezone: 'Asia/Kolkata' },
  currency: 'INR',
  price: 25000,
  status: 'PENDING_PAYMENT',
  status_changed: '2026-03-01T10:00:00Z',
  created: '2026-03-01T10:00:00Z',
  payment: {},
  next_statuses: ['PAID', 'CANCELED'],
  can_pay_offline: true,
  ...over,
});

function setup(results: TBooking[], replies: Parameters<typeof mockFetch>[0] = {}) {
  const fetchMock = mockFetch({
    [`GET ${LIST}`]: { body: { count: results.length, next: null, previous: null, results } },
    ...replies,
  });
  renderScanRoutes(makeUser('ADMIN'), '/booking', { '/booking': <BookingListPage /> });
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);

describe('BookingList', () => {
  it('shows the columns of part 3 with the price /100 and its currency, and the organization link', async () => {
    setup([booking(1)]);
    expect(await screen.findByText('Asha Rao')).toBeInTheDocument();
    expect(screen.getByText('+91-9876500001')).toBeInTheDocument();
    expect(screen.getByText('250.00 INR')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rao Clinic' })).toHaveAttribute('href', '/organization/2');
    expect(screen.getByText('Slot 7 · GMT+5:30')).toBeInTheDocument();
  });

  it("shows a slot in the clinic's time zone, not the viewer's", async () => {
    // 01:00Z is 09:00 in Manila; the test runner's zone is not Manila's.
    setup([
      booking(1, {
        slot_data: { id: 9, start: '2026-12-01T01:00:00Z', end: '2026-12-01T02:00:00Z' },
        organization_data: { id: 3, name: 'Bayanihan', timezone: 'Asia/Manila' },
      }),
    ]);
    const slot = (await screen.findByText('Slot 9 · GMT+8')).parentElement;
    expect(slot?.querySelector('time')?.textContent).toBe('01 Dec 2026');
    expect(slot?.textContent).toMatch(/09:00 AM – 10:00 AM$/);
  });

  it('says in the Slot Data dialog which zone its days are read in (issue 23.7)', async () => {
    setup([booking(1)]);
    await screen.findByText('Asha Rao');
    await userEvent.click(screen.getByTestId('period-tab-slot'));
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await screen.findByTestId('date-range-description')).toHaveTextContent(
      `Slot days in your time zone, ${zone}. Each slot shows its clinic's time and zone.`,
    );
  });

  it('fits the desktop columns on two-line cells: the slot day over its hours, the created day over its time', async () => {
    setup([booking(1, { email: 'asha.rao.long.address@example.com' })]);
    await screen.findByText('Asha Rao');
    expect(headers()).toEqual([
      'Name',
      'E-mail',
      'Slot Data',
      'Organization',
      'Price',
      'Status',
      'Created',
      'ID',
      'Actions',
    ]);
    const slot = screen.getByText('Slot 7 · GMT+5:30').parentElement;
    expect(slot?.querySelector('time')?.textContent).toMatch(/^03 Mar 2026$/);
    expect(slot?.textContent).toMatch(/09:00 AM – 10:00 AM$/);
    const created = screen.getByTitle(/^01 Mar 2026 \d\d:\d\d [AP]M$/);
    expect(created.querySelector('br')).not.toBeNull();
    // A long address may break before its '@' and after each dot before it.
    expect(screen.getByText(/^asha\.rao\.long\.address@example\.com$/).querySelectorAll('wbr')).toHaveLength(4);
  });

  it('below 1440 px puts the status under the name instead of a Status column (nine columns fit 1280 px)', async () => {
    vi.stubGlobal('matchMedia', matchMediaFor(STATUS_UNDER_NAME_QUERY));
    setup([booking(1)]);
    const name = await screen.findByText('Asha Rao');
    expect(headers()).toEqual(['Name', 'E-mail', 'Slot Data', 'Organization', 'Price', 'Created', 'ID', 'Actions']);
    expect(within(name.parentElement as HTMLElement).getByTestId('booking-status')).toHaveTextContent(
      'Pending payment',
    );
  });

  it('keeps the name, status and slot on a phone, with the status under the name', async () => {
    vi.stubGlobal('matchMedia', matchMediaFor(PHONE_QUERY));
    setup([booking(1)]);
    const name = await screen.findByText('Asha Rao');
    expect(headers()).toEqual(['Name', 'Slot Data', 'Actions']);
    expect(within(name.parentElement as HTMLElement).getByTestId('booking-status')).toHaveTextContent(
      'Pending payment',
    );
  });

  it('says No booking yet!, sends the chosen status, then says No booking found!', async () => {
    const user = userEvent.setup();
    const fetchMock = setup([]);
    expect(await screen.findByText(BOOKING_MESSAGES.emptyNone)).toBeInTheDocument();
    await user.click(screen.getByTestId('booking-status-filter'));
    await user.click(await screen.findByRole('option', { name: 'Paid' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ status: 'PAID' }));
    expect(await screen.findByText(BOOKING_MESSAGES.emptyFiltered)).toBeInTheDocument();
  });

  it('records an offline payment in the Booking modal and moves the booking', async () => {
    const user = userEvent.setup();
    const fetchMock = setup([booking(1)], {
      'GET /api/v1/booking/1/': { body: booking(1) },
      'POST /api/v1/booking/1/payment/': {
        body: { ...booking(1, { status: 'PAID' }), detail: BOOKING_MESSAGES.paymentRecorded },
      },
      'POST /api/v1/booking/1/status/': {
        body: { ...booking(1, { status: 'CANCELED' }), detail: BOOKING_MESSAGES.statusUpdated },
      },
    });
    await screen.findByText('Asha Rao');
    await user.click(screen.getByRole('button', { name: 'Actions for booking 1 of Asha Rao' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Details' }));
    const dialog = await screen.findByTestId('booking-dialog');
    expect(within(dialog).getByText('tok1')).toBeInTheDocument();
    expect(within(dialog).getByTestId('booking-move-PAID')).toHaveTextContent('Mark as paid');
    // The method's words, not its code.
    await user.click(within(dialog).getByTestId('booking-payment-method'));
    expect(await screen.findByRole('option', { name: 'Bank transfer' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Cash' }));
    expect(within(dialog).getByTestId('booking-move-CANCELED')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('booking-move-COMPLETED')).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference' }), 'R-9');
    await user.click(within(dialog).getByTestId('booking-payment-save'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([u, init]) => String(u).endsWith('/booking/1/payment/') && init?.method === 'POST',
        ),
      ).toBe(true),
    );
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/booking/1/payment/'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ method: 'CASH', reference: 'R-9' });
    await user.click(within(dialog).getByTestId('booking-move-CANCELED'));
    const move = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/booking/1/status/'));
    expect(JSON.parse(String(move?.[1]?.body))).toEqual({ status: 'CANCELED' });
  });

  it('lets Slot Data choose a future day: bookings are for slots ahead (issue 23.1)', async () => {
    const user = userEvent.setup();
    const fetchMock = setup([booking(1)]);
    await screen.findByText('Asha Rao');
    await user.click(screen.getByTestId('period-tab-slot'));
    const dialog = await screen.findByRole('dialog');
    const day = dayjs().add(1, 'month').date(15);
    await user.click(dialog.querySelector('[data-direction="next"]') as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: day.format('D MMMM YYYY') }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const iso = day.format('YYYY-MM-DD');
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ slot_after: iso, slot_before: iso }));
    expect(screen.getByTestId('period-tab-slot')).toHaveTextContent(`Slot ${day.format('DD MMM YYYY')}`);
  });

  it("selects Last 30 Days in an organization's Bookings tab, where All Time is hidden (issue 23.15)", async () => {
    const fetchMock = mockFetch({
      [`GET ${LIST}`]: { body: { count: 1, next: null, previous: null, results: [booking(1)] } },
    });
    renderScanRoutes(makeUser('ADMIN'), '/organization/2', {
      '/organization/2': <BookingList embedded organizationId={2} />,
    });
    await screen.findByText('Asha Rao');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Last 30 Days', 'Custom Range']);
    expect(screen.getByRole('tab', { name: 'Last 30 Days' })).toHaveAttribute('aria-selected', 'true');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({
      organization: '2',
      created_after: dayjs().subtract(30, 'day').format('YYYY-MM-DD'),
    });
  });

  it('says a search of an emoji and 3,000 letters is too long and asks nothing with it (issue 23.2)', async () => {
    const fetchMock = setup([booking(1)]);
    await screen.findByText('Asha Rao');
    const calls = fetchMock.mock.calls.length;
    fireEvent.change(screen.getByTestId('list-search'), { target: { value: `🙂${'a'.repeat(3000)}` } });
    expect(await screen.findByText(SEARCH_TOO_LONG_MESSAGE)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(fetchMock.mock.calls.slice(calls).filter(([u]) => String(u).includes('search='))).toEqual([]);
    expect(window.location.search).not.toContain('search=');
  });
});
