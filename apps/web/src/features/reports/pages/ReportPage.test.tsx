import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { ReportPage } from './ReportPage.tsx';

describe('ReportPage', () => {
  it('lists the technician and organization reports and opens the period modal for the one chosen', async () => {
    const fetchMock = mockFetch({});
    renderWithProviders(
      <SessionUserContext.Provider value={makeUser('DISTRIBUTOR_ADMIN')}>
        <ReportPage />
      </SessionUserContext.Provider>,
    );
    expect(screen.getByTestId('page-title')).toHaveTextContent('Scan Report');
    expect(screen.getByTestId('report-row-technician')).toHaveTextContent('Technician report');
    expect(screen.getByTestId('report-row-organization')).toHaveTextContent('Organization report');
    expect(screen.queryByTestId('report-year')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('report-generate-technician'));
    expect(await screen.findByRole('dialog', { name: 'Technician report' })).toBeInTheDocument();
    expect(screen.getByTestId('report-organization')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Nothing is asked of the API until a report is downloaded.
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
