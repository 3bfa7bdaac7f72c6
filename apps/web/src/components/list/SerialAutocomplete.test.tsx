import { useState } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';
import { renderWithProviders } from '../../test/render.tsx';
import { SerialAutocomplete, type SerialLookup } from './SerialAutocomplete.tsx';

/** A filter panel in miniature: the box keyed by the filter's value (as the panels key it), and a button that
 * closes and reopens the panel (the popover unmounts its content). */
function Panel({ lookup, initial }: { lookup: SerialLookup; initial?: string }) {
  const [value, setValue] = useState<string | undefined>(initial);
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen((o) => !o)}>
        toggle
      </button>
      {open && (
        <SerialAutocomplete key={value ?? ''} label="Device" value={value} onChange={setValue} lookup={lookup} testId="serial" />
      )}
      <span data-testid="filter">{value ?? ''}</span>
    </>
  );
}

const serials = (search: string) => (search ? [`${search.toUpperCase()}-1`, `${search.toUpperCase()}-2`] : ['A-1', 'B-2']);

describe('SerialAutocomplete', () => {
  it('reads each search term once: not again when the panel remounts, nor with the chosen option', async () => {
    const user = userEvent.setup();
    const fetch = vi.fn(async (search: string) => serials(search));
    renderWithProviders(<Panel lookup={{ key: ['serials'], fetch }} />);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch).toHaveBeenLastCalledWith('');

    // Closing and reopening the panel reuses the unsearched options.
    await user.click(screen.getByText('toggle'));
    await user.click(screen.getByText('toggle'));
    await user.type(screen.getByTestId('serial'), 'orc');
    await user.click(await screen.findByRole('option', { name: 'ORC-2' }));
    await waitFor(() => expect(screen.getByTestId('filter')).toHaveTextContent('ORC-2'));

    // The new filter remounts the box with the chosen serial: it is not a search; nor is reopening the panel.
    expect(screen.getByTestId('serial')).toHaveValue('ORC-2');
    await user.click(screen.getByText('toggle'));
    await user.click(screen.getByText('toggle'));
    await user.click(screen.getByTestId('serial'));
    // Past the debounce (a timer set at the remount, so it has fired before this one).
    await act(() => new Promise((resolve) => setTimeout(resolve, AUTOCOMPLETE_DEBOUNCE_MS * 2)));
    expect(fetch.mock.calls.map(([search]) => search)).toEqual(['', 'orc']);
  });

  it('lets a read still running when the panel closes finish, and the reopened panel uses it', async () => {
    const user = userEvent.setup();
    let answer: (serials: string[]) => void = () => undefined;
    const fetch = vi.fn(() => new Promise<string[]>((resolve) => (answer = resolve)));
    renderWithProviders(<Panel lookup={{ key: ['slow-serials'], fetch }} />);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await user.click(screen.getByText('toggle'));
    await user.click(screen.getByText('toggle'));
    act(() => answer(['SLOW-1']));
    await user.click(screen.getByTestId('serial'));
    expect(await screen.findByRole('option', { name: 'SLOW-1' })).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('without a lookup is a plain box: Enter commits the typed serial and nothing is read', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Panel lookup={undefined as unknown as SerialLookup} />);
    await user.type(screen.getByTestId('serial'), 'crv-7{Enter}');
    expect(screen.getByTestId('filter')).toHaveTextContent('crv-7');
    expect(screen.getByTestId('serial')).toHaveAttribute('placeholder', 'Exact serial number');
  });
});
