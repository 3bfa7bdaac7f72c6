// A filter panel's serial number picker (part 2 §2.7 Device, Sensor serial number; part 3 §2 ORCA Device): a text
// box offering the serial numbers that start with (or contain) what is typed, debounced; a chosen option or the
// text left in the box on blur is the filter (the API matches it exactly), an emptied box clears it. Each list
// gives its own lookup: the scan list the serials of its scans, the ORCA list the device registry. Without a lookup
// (a role that may not read where the options come from) it is a plain text box: nothing is requested.
// Each search term is read once: the search is what the user typed in this box (never the chosen option that the
// box writes back, nor the filter's value it opens with, which the panel's remount on a new filter brings), the
// options stay cached across remounts for a few minutes, and a read still running when the panel closes is left to
// finish (no abort signal) so the next opening uses it instead of asking again.
import { useRef, useState } from 'react';
import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';

/** Where a picker's options come from: a query key prefix (the search is appended) and the read. */
export type SerialLookup = {
  key: readonly unknown[];
  fetch: (search: string) => Promise<string[]>;
};

/** How long a search term's options are reused (remounts, reopening the panel) before they are read again. */
export const SERIAL_LOOKUP_STALE_MS = 5 * 60_000;

export function SerialAutocomplete({
  label,
  value,
  onChange,
  lookup,
  testId,
}: {
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  /** Undefined: no options, the typed serial number only. */
  lookup?: SerialLookup;
  testId: string;
}) {
  const [text, setText] = useState(value ?? '');
  // What the user typed here (the search); a chosen option written back into the box is not a search.
  const [typed, setTyped] = useState('');
  const picking = useRef(false);
  const [search] = useDebouncedValue(typed.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const options = useQuery({
    queryKey: [...(lookup?.key ?? ['serial-lookup-none']), search],
    queryFn: () => lookup?.fetch(search) ?? [],
    enabled: lookup !== undefined,
    placeholderData: keepPreviousData,
    staleTime: SERIAL_LOOKUP_STALE_MS,
    gcTime: SERIAL_LOOKUP_STALE_MS,
  });
  return (
    <Autocomplete
      label={label}
      placeholder={lookup ? 'Type to search' : 'Exact serial number'}
      value={text}
      data={options.data ?? []}
      onChange={(v) => {
        setText(v);
        if (!picking.current) setTyped(v);
        picking.current = false;
        if (v.trim() === '') onChange(undefined);
      }}
      onOptionSubmit={(v) => {
        // Mantine writes the option into the box right after this (onChange): not a new search.
        picking.current = true;
        onChange(v);
      }}
      onBlur={() => onChange(text.trim() || undefined)}
      // Enter commits the typed text, unless an option is highlighted (Mantine then submits that option).
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.currentTarget.getAttribute('aria-activedescendant')) onChange(text.trim() || undefined);
      }}
      comboboxProps={{ withinPortal: false }}
      data-testid={testId}
    />
  );
}
