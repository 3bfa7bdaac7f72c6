import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LICENCE_MESSAGES, type TLicence } from '@sc/shared/licences';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { LicenceDetailsDialog } from './LicenceDetailsDialog.tsx';
import { LicenceFormDialog } from './LicenceFormDialog.tsx';

const licence: TLicence = {
  id: 7,
  organization: { id: 3, name: 'Pune Clinic' },
  license_code: 'ORC-7KQ2-M9XH-4TZD',
  pin: '042517',
  application: 'ORCA',
  count: 57,
  total_license_count: 300,
  is_active: true,
  created: '2026-01-02T10:00:00Z',
  modified: '2026-01-02T10:00:00Z',
};

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

describe('LicenceFormDialog: Add License', () => {
  it('starts at 100 with minus disabled, steps by 100, and asks for an organization and an application', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<LicenceFormDialog opened onClose={vi.fn()} />);
    expect(screen.getByText('Add License')).toBeInTheDocument();
    expect(screen.getByTestId('licence-count')).toHaveTextContent('100');
    expect(screen.getByTestId('licence-count-minus')).toBeDisabled();
    await user.click(screen.getByTestId('licence-count-plus'));
    await user.click(screen.getByTestId('licence-count-plus'));
    expect(screen.getByTestId('licence-count')).toHaveTextContent('300');
    await user.click(screen.getByTestId('licence-count-minus'));
    expect(screen.getByTestId('licence-count')).toHaveTextContent('200');

    await user.click(screen.getByTestId('licence-submit'));
    expect(await screen.findByText(LICENCE_MESSAGES.organizationRequired)).toBeInTheDocument();
    expect(screen.getByText(LICENCE_MESSAGES.application)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('LicenceFormDialog: Edit License (renew)', () => {
  it('shows the current total, the amount added and the total after, and sends the new total', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/v1/organization/license/7/': { body: licence },
      'PATCH /api/v1/organization/license/7/': {
        body: {
          ...licence,
          count: 257,
          total_license_count: 500,
          detail: LICENCE_MESSAGES.renewed,
          renewal: { current: 300, added: 200, total: 500 },
        },
      },
    });
    renderWithProviders(<LicenceFormDialog opened licenceId={7} onClose={onClose} />);
    expect(screen.getByText('Edit License')).toBeInTheDocument();
    expect(await screen.findByTestId('licence-current')).toHaveTextContent('300');
    // Organization and application are read-only; the added count starts at 0 with minus disabled.
    expect(screen.getByTestId('licence-organization')).toHaveAttribute('readonly');
    expect(screen.getByTestId('licence-application')).toHaveAttribute('readonly');
    expect(screen.getByTestId('licence-added')).toHaveTextContent('0');
    expect(screen.getByTestId('licence-added-minus')).toBeDisabled();
    expect(screen.getByTestId('licence-submit')).toBeDisabled();

    await user.click(screen.getByTestId('licence-added-plus'));
    await user.click(screen.getByTestId('licence-added-plus'));
    expect(screen.getByTestId('licence-added-summary')).toHaveTextContent('+200');
    expect(screen.getByTestId('licence-total')).toHaveTextContent('500');
    await user.click(screen.getByTestId('licence-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/license/7/')).toEqual({
      organization: 3,
      application: 'ORCA',
      count: 500,
      is_active: true,
    });
    expect(await screen.findByText(LICENCE_MESSAGES.renewed)).toBeInTheDocument();
  });

  it('shows a refused save in the form error area', async () => {
    // The failure is logged (part 3 §8); keep the test output quiet.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    const onClose = vi.fn();
    mockFetch({
      'GET /api/v1/organization/license/7/': { body: licence },
      'PATCH /api/v1/organization/license/7/': {
        status: 400,
        body: { count: [LICENCE_MESSAGES.countBelowTotal(400)] },
      },
    });
    renderWithProviders(<LicenceFormDialog opened licenceId={7} onClose={onClose} />);
    await user.click(await screen.findByTestId('licence-added-plus'));
    await user.click(screen.getByTestId('licence-submit'));
    expect(await screen.findByTestId('licence-form-errors')).toHaveTextContent(
      LICENCE_MESSAGES.countBelowTotal(400),
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('LicenceDetailsDialog', () => {
  it('shows the licence and its logs, newest first', async () => {
    mockFetch({
      'GET /api/v1/organization/license/7/': { body: licence },
      'GET /api/v1/organization/license/log/': {
        body: page([
          {
            id: 2,
            license_id: 7,
            before_count: 57,
            after_count: 257,
            renewal_datetime: '2026-02-01T10:00:00Z',
            renewed_by: 1,
            renewed_by_name: 'Asha Admin',
            created: '2026-02-01T10:00:00Z',
          },
          {
            id: 1,
            license_id: 7,
            before_count: 0,
            after_count: 100,
            renewal_datetime: '2026-01-02T10:00:00Z',
            renewed_by: 1,
            renewed_by_name: 'Asha Admin',
            created: '2026-01-02T10:00:00Z',
          },
        ]),
      },
    });
    renderWithProviders(<LicenceDetailsDialog licenceId={7} onClose={vi.fn()} />);
    expect(screen.getByText('License Details')).toBeInTheDocument();
    expect(await screen.findByText('ORC-7KQ2-M9XH-4TZD')).toBeInTheDocument();
    expect(screen.getByText('042517')).toBeInTheDocument();
    const rows = await screen.findAllByTestId('licence-log-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('5725');
    expect(rows[0]).toHaveTextContent('Asha Admin');
  });

  it("says 'No license logs found!' when there are none", async () => {
    mockFetch({
      'GET /api/v1/organization/license/7/': { body: licence },
      'GET /api/v1/organization/license/log/': { body: page([]) },
    });
    renderWithProviders(<LicenceDetailsDialog licenceId={7} onClose={vi.fn()} />);
    expect(await screen.findByTestId('licence-log-empty')).toHaveTextContent(LICENCE_MESSAGES.noLogs);
  });

  it('pages the log so every row can be reached: the next page asks for page 2 and numbers on from 21', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      id: 100 - i,
      license_id: 7,
      before_count: 200 - i,
      after_count: 199 - i,
      renewal_datetime: '2026-02-01T10:00:00Z',
      renewed_by: 1,
      renewed_by_name: 'Asha Admin',
      created: '2026-02-01T10:00:00Z',
    }));
    const fetchMock = mockFetch({
      'GET /api/v1/organization/license/7/': { body: licence },
      'GET /api/v1/organization/license/log/': { body: { count: 45, next: null, previous: null, results: rows } },
    });
    const logQueries = () =>
      fetchMock.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname === '/api/v1/organization/license/log/')
        .map((url) => url.searchParams);
    renderWithProviders(<LicenceDetailsDialog licenceId={7} onClose={vi.fn()} />);
    expect(await screen.findAllByTestId('licence-log-row')).toHaveLength(20);
    expect(screen.getByTestId('list-total')).toHaveTextContent('45');
    expect(logQueries()[0]?.get('page')).toBe('1');
    expect(logQueries()[0]?.get('limit')).toBe('20');
    await userEvent.setup().click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(logQueries().some((q) => q.get('page') === '2')).toBe(true));
    await waitFor(() => expect(screen.getAllByTestId('licence-log-row')[0]).toHaveTextContent(/^21/));
  });
});
