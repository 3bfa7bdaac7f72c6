import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { AlertDialog, openAlert } from './AlertDialog.tsx';

describe('AlertDialog', () => {
  it('closes itself after 3 s', async () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    renderWithProviders(<AlertDialog opened onClose={onClose} variant="success" title="Saved" />);
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(onClose).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is a dialog named by its title for screen readers', () => {
    renderWithProviders(
      <AlertDialog opened onClose={() => undefined} variant="success" title="Saved" message="All good" />,
    );
    expect(screen.getByRole('dialog', { name: 'Saved' })).toHaveTextContent('All good');
  });

  it('stays open with a close icon when autoClose is false', async () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    renderWithProviders(
      <AlertDialog opened onClose={onClose} variant="error" title="Failed" autoClose={false} />,
    );
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('opens imperatively and closes after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<p>page</p>);
    let closed = false;
    act(() => {
      void openAlert({ variant: 'success', title: 'User Deleted Successfully' }).then(() => {
        closed = true;
      });
    });
    expect(await screen.findByRole('dialog', { name: 'User Deleted Successfully' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(screen.queryByText('User Deleted Successfully')).not.toBeInTheDocument();
    expect(closed).toBe(true);
  });
});
