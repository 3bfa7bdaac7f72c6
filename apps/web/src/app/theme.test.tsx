import { Modal } from '@mantine/core';
import { modals } from '@mantine/modals';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';

describe('theme', () => {
  it("names every dialog's close button for screen readers", () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="Some dialog">
        body
      </Modal>,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('names the close button of dialogs opened through the modals manager too', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      modals.open({ title: 'Managed dialog', children: 'body' });
    });
    expect(await screen.findByText('Managed dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
