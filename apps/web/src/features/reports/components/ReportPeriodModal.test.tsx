import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { ReportPeriodModal } from './ReportPeriodModal.tsx';

const TODAY = '2026-11-24';

async function choose(testId: string, option: string) {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}
const optionsOf = async (testId: string) => {
  await userEvent.click(screen.getByTestId(testId));
  const listbox = await screen.findByRole('listbox');
  const names = within(listbox)
    .getAllByRole('option')
    .map((o) => o.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
};

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('ReportPeriodModal', () => {
  it('offers the years down to 2018 and, for the current year, only completed periods', async () => {
    mockFetch({});
    renderWithProviders(<ReportPeriodModal kind="organization" role="ORG_ADMIN" onClose={vi.fn()} today={TODAY} />);
    expect(screen.getByText('Organization report')).toBeInTheDocument();
    const years = await optionsOf('report-year');
    expect(years[0]).toBe('2026');
    expect(years.at(-1)).toBe('2018');
    await choose('report-year', '2026');
    expect(await optionsOf('report-period-type')).toEqual(['Monthly', 'Quarterly', 'Half yearly']);
    await choose('report-period-type', 'Quarterly');
    expect(await optionsOf('report-period-choice')).toEqual(['Q1 (Jan-Mar)', 'Q2 (Apr-Jun)', 'Q3 (Jul-Sep)']);
    await choose('report-period-choice', 'Q3 (Jul-Sep)');

    // A new year resets the period choices; an earlier year offers everything.
    await choose('report-year', '2025');
    expect(screen.queryByTestId('report-period-choice')).not.toBeInTheDocument();
    expect(screen.getByTestId('report-period-type')).toHaveValue('');
    expect(await optionsOf('report-period-type')).toEqual(['Monthly', 'Quarterly', 'Half yearly', 'Annually']);
    await choose('report-period-type', 'Monthly');
    expect(await optionsOf('report-period-choice')).toHaveLength(12);
  });

  it('asks for the year, the period and the month before downloading', async () => {
    const fetchMock = mockFetch({});
    renderWithProviders(<ReportPeriodModal kind="technician" role="ORG_ADMIN" onClose={vi.fn()} today={TODAY} />);
    await userEvent.click(screen.getByTestId('report-download'));
    expect(await screen.findByText('Select Year')).toBeInTheDocument();
    await choose('report-year', '2025');
    await choose('report-period-type', 'Monthly');
    await userEvent.click(screen.getByTestId('report-download'));
    expect(await screen.findByText('Select month')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the organization search to ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN and MANAGER only', () => {
    mockFetch({});
    for (const role of ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER'] as const) {
      const { unmount } = renderWithProviders(<ReportPeriodModal kind="organization" role={role} onClose={vi.fn()} today={TODAY} />);
      expect(screen.getByTestId('report-organization')).toBeInTheDocument();
      unmount();
    }
    renderWithProviders(<ReportPeriodModal kind="organization" role="ORG_ADMIN" onClose={vi.fn()} today={TODAY} />);
    expect(screen.queryByTestId('report-organization')).not.toBeInTheDocument();
  });

  it('downloads the CSV of the chosen quarter against the previous one, saves it and closes', async () => {
    const fetchMock = vi.fn(async () => new Response('ID,Name\n1,A\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    renderWithProviders(<ReportPeriodModal kind="organization" role="ORG_ADMIN" onClose={onClose} today={TODAY} />);
    await choose('report-year', '2026');
    await choose('report-period-type', 'Quarterly');
    await choose('report-period-choice', 'Q1 (Jan-Mar)');
    await userEvent.click(screen.getByTestId('report-download'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const url = new URL(String((fetchMock.mock.calls[0] as unknown[])[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/v1/organization/leaderboard/report-generate/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      report_start_date_1: '2025-10-01 00:00:00',
      report_end_date_1: '2025-12-31 23:59:59',
      report_start_date_2: '2026-01-01 00:00:00',
      report_end_date_2: '2026-03-31 23:59:59',
      report_log: 'true',
      format: 'csv',
    });
    expect(URL.createObjectURL).toHaveBeenCalled();
  });

  it("shows 'No scans found' and stays open when the report has no rows", async () => {
    mockFetch({
      'GET /api/v1/organization/report-generate/': { status: 404, body: { detail: 'No scans found' } },
    });
    const onClose = vi.fn();
    renderWithProviders(<ReportPeriodModal kind="technician" role="ORG_ADMIN" onClose={onClose} today={TODAY} />);
    await choose('report-year', '2019');
    await choose('report-period-type', 'Annually');
    await userEvent.click(screen.getByTestId('report-download'));
    expect(await screen.findByTestId('report-no-scans')).toHaveTextContent('No scans found');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes when the report fails for another reason', async () => {
    mockFetch({ 'GET /api/v1/organization/report-generate/': { status: 400, body: { report_end_date_2: ['Bad'] } } });
    const onClose = vi.fn();
    renderWithProviders(<ReportPeriodModal kind="technician" role="ORG_ADMIN" onClose={onClose} today={TODAY} />);
    await choose('report-year', '2019');
    await choose('report-period-type', 'Annually');
    await userEvent.click(screen.getByTestId('report-download'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
