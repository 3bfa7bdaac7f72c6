import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TLocalize } from '@sc/shared/organizations';
import { bodyOf } from '../../../test/render.tsx';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { makeOrganization, mockFormApi, renderAs } from './formTestUtils.tsx';

// Consent texts allow Latin letters only (part 1 §5).
const HINDI: TLocalize = {
  hi: { name: 'Hindi', ibe_consent_form: ['Main sahmat hoon.'], cervaical_consent_form: [], orca_consent_form: [] },
};

describe('LanguageSettingDialog', () => {
  it('offers neither English nor a language already chosen', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderAs('ADMIN', <LanguageSettingDialog opened onClose={vi.fn()} value={HINDI} onChange={vi.fn()} />);
    await user.click(screen.getByTestId('language-add'));
    const picker = within(screen.getByTestId('language-row-1')).getByTestId('language-row-1-language');
    await user.click(picker);
    expect(await screen.findByRole('option', { name: 'Spanish' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'English' })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Hindi' })).not.toBeInTheDocument();

    await user.type(picker, 'Hin');
    expect(await screen.findByText('Language already selected')).toBeInTheDocument();
    await user.clear(picker);
    await user.type(picker, 'Eng');
    expect(await screen.findByText('Language not in the list')).toBeInTheDocument();
  });

  it('needs a language on every row and writes the rows into the form when creating', async () => {
    mockFormApi();
    const user = userEvent.setup();
    const onChange = vi.fn();
    const onClose = vi.fn();
    renderAs('ADMIN', <LanguageSettingDialog opened onClose={onClose} value={{}} onChange={onChange} />);
    await user.click(screen.getByTestId('language-add'));
    await user.click(screen.getByTestId('language-submit'));
    expect(await screen.findByText('Please select a language')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    await user.click(screen.getByTestId('language-row-0-language'));
    await user.click(await screen.findByRole('option', { name: 'Spanish' }));
    fireEvent.change(screen.getByTestId('language-row-0-ibe_consent_form-0'), { target: { value: 'Acepto\nel examen.' } });
    await user.click(screen.getByTestId('language-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(onChange).toHaveBeenCalledWith({
      es: { name: 'Spanish', ibe_consent_form: ['Acepto el examen.'], cervaical_consent_form: [], orca_consent_form: [] },
    });
  });

  it('asks before a language is removed', async () => {
    mockFormApi();
    const user = userEvent.setup();
    renderAs('ADMIN', <LanguageSettingDialog opened onClose={vi.fn()} value={HINDI} onChange={vi.fn()} />);
    await user.click(screen.getByTestId('language-row-0-delete'));
    expect(
      await screen.findByText('Are you sure you want to delete this value? Please SUBMIT to save the changes.'),
    ).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('language-row-0')).not.toBeInTheDocument());
  });

  it('saves the localize of an existing organization', async () => {
    const saved = makeOrganization({ localize: HINDI });
    const fetchMock = mockFormApi({ 'PATCH /api/v1/organization/5/': { body: saved } });
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderAs('ADMIN', <LanguageSettingDialog opened onClose={onClose} organizationId={5} value={HINDI} />);
    await user.click(screen.getByTestId('language-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodyOf(fetchMock, 'PATCH /api/v1/organization/5/')).toEqual({ localize: HINDI });
  });
});
