import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { APP_VERSION_MESSAGES, type TAppVersion } from '@sc/shared/app-versions';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { AppVersionDialog } from './AppVersionDialog.tsx';

const version: TAppVersion = {
  id: 12,
  name: '1.3.2',
  code: '132',
  tutorial_version: 2.5,
  notes: { note: 'Offline mode keeps reports.' },
  type: 'ORCA',
  created: '2026-01-02T10:00:00Z',
  modified: '2026-01-02T10:00:00Z',
};

describe('AppVersionDialog: create', () => {
  it('opens in edit mode and highlights the invalid fields after a submit attempt, sending nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<AppVersionDialog opened type="CERVAICAL" onClose={vi.fn()} />);
    expect(screen.getByText('Create app version')).toBeInTheDocument();
    // No error before a submit attempt.
    expect(screen.queryByText(APP_VERSION_MESSAGES.nameRequired)).not.toBeInTheDocument();
    await user.type(screen.getByTestId('app-version-name'), '   ');
    await user.type(screen.getByTestId('app-version-tutorial'), 'v2');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(APP_VERSION_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(APP_VERSION_MESSAGES.codeRequired)).toBeInTheDocument();
    expect(screen.getByText(APP_VERSION_MESSAGES.noteRequired)).toBeInTheDocument();
    expect(screen.getByText(APP_VERSION_MESSAGES.tutorialVersion)).toBeInTheDocument();
    expect(screen.getByTestId('app-version-name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();

    // The error clears as the field becomes valid.
    await user.type(screen.getByTestId('app-version-name'), '2.0.0');
    await waitFor(() => expect(screen.queryByText(APP_VERSION_MESSAGES.nameRequired)).not.toBeInTheDocument());
  });

  it("creates a version of the page's app and closes with the success message", async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'POST /api/v1/app_version/': {
        status: 201,
        body: { ...version, type: 'CERVAICAL', detail: APP_VERSION_MESSAGES.created },
      },
    });
    renderWithProviders(<AppVersionDialog opened type="CERVAICAL" onClose={onClose} />);
    await user.type(screen.getByTestId('app-version-name'), '2.0.0');
    await user.type(screen.getByTestId('app-version-code'), '200');
    await user.type(screen.getByTestId('app-version-note'), 'New screen');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/app_version/')).toEqual({
      name: '2.0.0',
      code: '200',
      notes: { note: 'New screen' },
      type: 'CERVAICAL',
      tutorial_version: null,
    });
    expect(await screen.findByText(APP_VERSION_MESSAGES.created)).toBeInTheDocument();
  });

  it('keeps the code at 10 characters and shows a server refusal on its field without closing', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    mockFetch({
      'POST /api/v1/app_version/': { status: 400, body: { code: [APP_VERSION_MESSAGES.duplicateCode] } },
    });
    renderWithProviders(<AppVersionDialog opened type="IBE" onClose={onClose} />);
    await user.type(screen.getByTestId('app-version-code'), '123456789012');
    expect(screen.getByTestId('app-version-code')).toHaveValue('1234567890');
    await user.type(screen.getByTestId('app-version-name'), '3.0.0');
    await user.type(screen.getByTestId('app-version-note'), 'Notes');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findAllByText(APP_VERSION_MESSAGES.duplicateCode)).not.toHaveLength(0);
    expect(screen.getByTestId('app-version-code')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('AppVersionDialog: an existing version', () => {
  it('opens read-only with Edit; Edit offers Cancel and Update; Cancel drops the changes', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/v1/app_version/12/': { body: version } });
    renderWithProviders(<AppVersionDialog opened type="ORCA" versionId={12} onClose={vi.fn()} />);
    expect(await screen.findByTestId('app-version-name')).toHaveValue('1.3.2');
    expect(screen.getByText('App version details')).toBeInTheDocument();
    for (const id of ['app-version-name', 'app-version-code', 'app-version-tutorial', 'app-version-note']) {
      expect(screen.getByTestId(id)).toHaveAttribute('readonly');
    }
    expect(screen.getByTestId('app-version-tutorial')).toHaveValue('2.5');
    expect(screen.getByTestId('app-version-note')).toHaveValue('Offline mode keeps reports.');
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByTestId('app-version-name')).not.toHaveAttribute('readonly');
    await user.clear(screen.getByTestId('app-version-name'));
    await user.type(screen.getByTestId('app-version-name'), 'Changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('app-version-name')).toHaveValue('1.3.2');
    expect(screen.getByTestId('app-version-name')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('Update sends every field with the id by PUT and closes with the success message', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/v1/app_version/12/': { body: version },
      'PUT /api/v1/app_version/12/': { body: { ...version, code: '133', detail: APP_VERSION_MESSAGES.updated } },
    });
    renderWithProviders(<AppVersionDialog opened type="ORCA" versionId={12} onClose={onClose} />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.clear(screen.getByTestId('app-version-code'));
    await user.type(screen.getByTestId('app-version-code'), '133');
    await user.clear(screen.getByTestId('app-version-tutorial'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PUT /api/v1/app_version/12/')).toEqual({
      id: 12,
      name: '1.3.2',
      code: '133',
      notes: { note: 'Offline mode keeps reports.' },
      type: 'ORCA',
      tutorial_version: null,
    });
    expect(await screen.findByText(APP_VERSION_MESSAGES.updated)).toBeInTheDocument();
  });
});
