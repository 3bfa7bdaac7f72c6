import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TAppVersion } from '@sc/shared/app-versions';
import { LANGUAGE_MESSAGES, type TLanguage } from '@sc/shared/languages';
import { bodyOf, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { LanguageDialog } from './LanguageDialog.tsx';

const ibe = (id: number, name: string): TAppVersion => ({
  id,
  name,
  code: name.replace(/\./g, ''),
  tutorial_version: null,
  notes: { note: 'n' },
  type: 'IBE',
  created: '2026-01-02T10:00:00Z',
  modified: '2026-01-02T10:00:00Z',
});
const versions = { count: 2, next: null, previous: null, results: [ibe(5, '3.1.0'), ibe(4, '3.0.0')] };
const hindi: TLanguage = { id: 2, name: 'Hindi', iso_code: 'hi', is_tutorial_available: true, app_version: 4, ibe_consent_form: [] };

describe('LanguageDialog: create', () => {
  it('highlights a blank name and an ISO code over 2 characters with the spec message after a submit attempt', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({ 'GET /api/v1/app_version/': { body: versions } });
    renderWithProviders(<LanguageDialog opened onClose={vi.fn()} />);
    expect(screen.getByText('Language details')).toBeInTheDocument();
    await user.type(screen.getByTestId('language-iso-code'), 'eng');
    expect(screen.queryByText(LANGUAGE_MESSAGES.isoInvalid)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(LANGUAGE_MESSAGES.isoInvalid)).toBeInTheDocument();
    expect(screen.getByText(LANGUAGE_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByTestId('language-iso-code')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('offers only IBE app versions and creates the language with the success message', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/v1/app_version/': { body: versions },
      'POST /api/v1/language/': {
        status: 201,
        body: { id: 9, name: 'Tamil', iso_code: 'ta', is_tutorial_available: true, app_version: 5, detail: LANGUAGE_MESSAGES.created },
      },
    });
    renderWithProviders(<LanguageDialog opened onClose={onClose} />);
    await user.type(screen.getByTestId('language-name'), 'Tamil');
    await user.type(screen.getByTestId('language-iso-code'), 'TA');
    await user.click(screen.getByTestId('language-tutorial'));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/app_version/'));
      expect(new URL(String(call?.[0]), 'http://x').searchParams.get('type')).toBe('IBE');
    });
    await user.click(screen.getByTestId('language-app-version'));
    await user.click(await screen.findByRole('option', { name: '3.1.0 (310)' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'POST /api/v1/language/')).toEqual({
      name: 'Tamil',
      iso_code: 'ta',
      is_tutorial_available: true,
      app_version: 5,
    });
    expect(await screen.findByText(LANGUAGE_MESSAGES.created)).toBeInTheDocument();
  });

  it('shows an ISO code already taken on its field and stays open', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    mockFetch({
      'GET /api/v1/app_version/': { body: versions },
      'POST /api/v1/language/': { status: 400, body: { iso_code: [LANGUAGE_MESSAGES.isoTaken] } },
    });
    renderWithProviders(<LanguageDialog opened onClose={onClose} />);
    await user.type(screen.getByTestId('language-name'), 'Hindi');
    await user.type(screen.getByTestId('language-iso-code'), 'hi');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const errors = await screen.findByTestId('language-form-errors');
    expect(within(errors).getByText(LANGUAGE_MESSAGES.isoTaken, { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('language-iso-code')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('LanguageDialog: an existing language', () => {
  it('opens read-only with its app version named; Edit then Update sends every field by PUT', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/v1/language/2/': { body: hindi },
      'GET /api/v1/app_version/': { body: versions },
      'PUT /api/v1/language/2/': { body: { ...hindi, name: 'Hindi (India)', detail: LANGUAGE_MESSAGES.updated } },
    });
    renderWithProviders(<LanguageDialog opened languageId={2} onClose={onClose} />);
    expect(await screen.findByTestId('language-name')).toHaveValue('Hindi');
    expect(screen.getByTestId('language-name')).toHaveAttribute('readonly');
    expect(screen.getByTestId('language-iso-code')).toHaveAttribute('readonly');
    expect(screen.getByTestId('language-tutorial')).toHaveAttribute('aria-readonly', 'true');
    expect(screen.getByTestId('language-tutorial')).toBeChecked();
    await user.click(screen.getByTestId('language-tutorial'));
    expect(screen.getByTestId('language-tutorial')).toBeChecked();
    await waitFor(() => expect(screen.getByTestId('language-app-version')).toHaveValue('3.0.0 (300)'));
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.type(screen.getByTestId('language-name'), ' (India)');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PUT /api/v1/language/2/')).toEqual({
      id: 2,
      name: 'Hindi (India)',
      iso_code: 'hi',
      is_tutorial_available: true,
      app_version: 4,
    });
    expect(await screen.findByText(LANGUAGE_MESSAGES.updated)).toBeInTheDocument();
  });
});
