// A filter panel's serial number picker (part 2 §2.7 Device, Sensor serial number; part 3 §2 ORCA Device): a text
// box offering the serial numbers that start with (or contain) what is typed, debounced; a chosen option or the
// text left in the box on blur is the filter (the API matches it exactly), an emptied box clears it. Each list
// gives its own lookup: the scan list the serials of its scans, the ORCA list the device registry. Without a lookup
// (a role that may not read where the options come from) it is a plain text box: nothing is requested.
import { useState } from 'react';
import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';

/** Where a picker's options come from: a query key prefix (the search is appended) and the read. */
export type SerialLookup = {
  key: readonly unknown[];
  fetch: (search: string, signal: AbortSignal) => Promise<string[]>;
};

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
  const [search] = useDebouncedValue(text.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const options = useQuery({
    queryKey: [...(lookup?.key ?? ['serial-lookup-none']), search],
    queryFn: ({ signal }) => lookup?.fetch(search, signal) ?? [],
    enabled: lookup !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  return (
    <Autocomplete
      label={label}
      placeholder={lookup ? 'Type to search' : 'Exact serial number'}
      value={text}
      data={options.data ?? []}
      onChange={(v) => {
        setText(v);
        if (v.trim() === '') onChange(undefined);
      }}
      onOptionSubmit={(v) => onChange(v)}
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
