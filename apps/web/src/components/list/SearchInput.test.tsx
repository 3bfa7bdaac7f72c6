import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '@sc/shared/constants';
import { renderWithProviders } from '../../test/render.tsx';
import { SearchInput } from './SearchInput.tsx';

describe('SearchInput', () => {
  it('reports the trimmed text once typing pauses for 500 ms', async () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    renderWithProviders(<SearchInput value="" onChange={onChange} placeholder="Search by name" />);
    const input = screen.getByPlaceholderText('Search by name');
    fireEvent.change(input, { target: { value: 'nor' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    fireEvent.change(input, { target: { value: 'north ' } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1));
    expect(onChange).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('north');
  });

  it('clears at once with the clear button', () => {
    const onChange = vi.fn();
    renderWithProviders(<SearchInput value="north" onChange={onChange} placeholder="Search" />);
    expect(screen.getByPlaceholderText('Search')).toHaveValue('north');
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(onChange).toHaveBeenCalledWith('');
    expect(screen.getByPlaceholderText('Search')).toHaveValue('');
  });

  it('shows a value changed from outside (back button, reset)', () => {
    function Harness() {
      const [value, setValue] = useState('a');
      return (
        <>
          <SearchInput value={value} onChange={setValue} placeholder="Search" />
          <button onClick={() => setValue('b')}>outside</button>
        </>
      );
    }
    renderWithProviders(<Harness />);
    expect(screen.getByPlaceholderText('Search')).toHaveValue('a');
    fireEvent.click(screen.getByRole('button', { name: 'outside' }));
    expect(screen.getByPlaceholderText('Search')).toHaveValue('b');
  });
});
