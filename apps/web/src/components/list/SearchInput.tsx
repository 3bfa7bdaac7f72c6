// The search box of every list: typing is debounced (500 ms, part 1 §9) before `onChange`, so the
// list asks the API once per pause, not once per key. A clear button empties it at once. Text the API would refuse
// (longer than SEARCH_MAX_LENGTH, counted as the API counts, or a character no field takes) is not sent: the field
// says why and the list keeps its last search (issue 23.2), rather than the API's 400 turning into no search.
import { useEffect, useRef, useState } from 'react';
import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { SEARCH_DEBOUNCE_MS } from '@sc/shared/constants';
import { searchProblem } from '@sc/shared/list';

type SearchInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  /** The applied search (from the URL). */
  value: string;
  /** Called with the trimmed text after the debounce, or at once on clear. */
  onChange: (value: string) => void;
  placeholder: string;
  debounceMs?: number;
};

export function SearchInput({ value, onChange, placeholder, debounceMs = SEARCH_DEBOUNCE_MS, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The URL changed from elsewhere (back button, reset): show it.
  const [prevValue, setPrevValue] = useState(value);
  if (value !== prevValue) {
    setPrevValue(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const problem = searchProblem(text);

  const schedule = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    if (searchProblem(next)) return;
    timer.current = setTimeout(() => {
      if (next.trim() !== value) onChangeRef.current(next.trim());
    }, debounceMs);
  };

  const clear = () => {
    clearTimeout(timer.current);
    setText('');
    if (value !== '') onChange('');
  };

  return (
    <TextInput
      placeholder={placeholder}
      aria-label={placeholder}
      leftSection={<IconSearch size={16} stroke={1.6} />}
      rightSection={text ? <CloseButton size="sm" aria-label="Clear search" onClick={clear} data-testid="search-clear" /> : null}
      data-testid="list-search"
      miw={260}
      {...props}
      error={problem}
      value={text}
      onChange={(event) => schedule(event.currentTarget.value)}
    />
  );
}
