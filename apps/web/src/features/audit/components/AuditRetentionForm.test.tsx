import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_RETENTION_MESSAGE } from '@sc/shared/audit';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { AuditRetentionButton } from './AuditRetentionForm.tsx';

const SETTINGS = '/api/v1/audit/settings/';

afterEach(() => vi.unstubAllGlobals());

describe('AuditRetentionForm', () => {
  it('refuses a retention under a year on the field with the shared message, then saves a valid one', async () => {
    const fetchMock = mockFetch({
      [`GET ${SETTINGS}`]: { body: { retention_days: null } },
      [`PUT ${SETTINGS}`]: (init) => ({ body: JSON.parse(String(init?.body)) as unknown }),
    });
    renderWithProviders(<AuditRetentionButton />);
    await userEvent.click(screen.getByTestId('audit-retention'));
    await userEvent.click(await screen.findByLabelText('Keep a number of days'));
    await userEvent.type(screen.getByTestId('audit-retention-days'), '30');
    await userEvent.click(screen.getByTestId('audit-retention-save'));
    expect(await screen.findByText(AUDIT_RETENTION_MESSAGE)).toBeInTheDocument();
    expect(bodyOf(fetchMock, `PUT ${SETTINGS}`)).toBeUndefined();

    await userEvent.clear(screen.getByTestId('audit-retention-days'));
    await userEvent.type(screen.getByTestId('audit-retention-days'), '400');
    await userEvent.click(screen.getByTestId('audit-retention-save'));
    await waitFor(() => expect(bodyOf(fetchMock, `PUT ${SETTINGS}`)).toEqual({ retention_days: 400 }));
  });

  it('saves Keep all rows as null', async () => {
    const fetchMock = mockFetch({
      [`GET ${SETTINGS}`]: { body: { retention_days: 730 } },
      [`PUT ${SETTINGS}`]: (init) => ({ body: JSON.parse(String(init?.body)) as unknown }),
    });
    renderWithProviders(<AuditRetentionButton />);
    await userEvent.click(screen.getByTestId('audit-retention'));
    expect(await screen.findByTestId('audit-retention-days')).toHaveValue('730');
    await userEvent.click(screen.getByLabelText('Keep all rows'));
    await userEvent.click(screen.getByTestId('audit-retention-save'));
    await waitFor(() => expect(bodyOf(fetchMock, `PUT ${SETTINGS}`)).toEqual({ retention_days: null }));
  });
});
