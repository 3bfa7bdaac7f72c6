import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { confirm } from './ConfirmDialog.tsx';

describe('confirm()', () => {
  it('resolves true on Confirm', async () => {
    const user = userEvent.setup();
    renderWithProviders(<p>page</p>);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirm({ message: 'Are you sure you want to delete your account' });
    });
    expect(await screen.findByText('Are you sure you want to delete your account')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
  });

  it('resolves false on a custom cancel label', async () => {
    const user = userEvent.setup();
    renderWithProviders(<p>page</p>);
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = confirm({ message: 'Remove?', confirmLabel: 'Remove', cancelLabel: 'Keep' });
    });
    await user.click(await screen.findByRole('button', { name: 'Keep' }));
    await expect(answer).resolves.toBe(false);
  });
});
