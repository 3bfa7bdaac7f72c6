import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '@sc/shared/constants';
import { SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '@sc/shared/list';
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

  it.each([
    ['201 letters', 'a'.repeat(SEARCH_MAX_LENGTH + 1)],
    ['an emoji and 3,000 letters', `🙂${'a'.repeat(3000)}`],
    ['200 letters and an emoji', `${'a'.repeat(SEARCH_MAX_LENGTH)}🙂`],
  ])('says %s is too long on the field and does not send it (issue 23.2)', async (_label, text) => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    renderWithProviders(<SearchInput value="north" onChange={onChange} placeholder="Search" />);
    const input = screen.getByPlaceholderText('Search');
    fireEvent.change(input, { target: { value: text } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // Back within the limit (an emoji counts one, as the API counts): the message goes and the search is sent.
    const fits = `${'a'.repeat(SEARCH_MAX_LENGTH - 1)}🙂`;
    fireEvent.change(input, { target: { value: fits } });
    expect(screen.queryByText(SEARCH_TOO_LONG_MESSAGE)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS));
    expect(onChange).toHaveBeenCalledWith(fits);
    vi.useRealTimers();
  });

  it('says a search too long when it comes from a link, not only when typed (issue 23.2)', () => {
    renderWithProviders(<SearchInput value={'a'.repeat(SEARCH_MAX_LENGTH + 1)} onChange={vi.fn()} placeholder="Search" />);
    expect(screen.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search')).toHaveAttribute('aria-invalid', 'true');
  });
});
