// The audit screen's actor filter: a user found by name (the users the reader may list, any role), or the id a link
// carried. The scan filter's technician search, for every user type.
import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../../api/client.ts';
import { technicianOptionLabel } from '../../../components/TechnicianPicker.tsx';

type UserOption = { id: number; first_name: string; last_name: string; username: string };

type ActorSelectProps = {
  value: number | undefined;
  /** The chosen user's label, kept in the URL beside the id. */
  valueLabel?: string;
  onChange: (id: number | undefined, label: string | undefined) => void;
  testId?: string;
};

export function ActorSelect({ value, valueLabel, onChange, testId = 'audit-actor-filter' }: ActorSelectProps) {
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const candidates = useQuery({
    queryKey: ['organization-user', 'list', 'audit-actor', search],
    queryFn: ({ signal }) =>
      api.list<TPaginated<UserOption>>('organization/user/', { query: { search, limit: 20, ordering: 'first_name' }, signal }),
    enabled: search.length >= AUTOCOMPLETE_MIN_CHARS,
    placeholderData: keepPreviousData,
  });
  const options = (candidates.data?.results ?? []).map((u) => ({ value: String(u.id), label: technicianOptionLabel(u) }));
  if (value !== undefined && !options.some((o) => o.value === String(value))) {
    options.unshift({ value: String(value), label: valueLabel ?? `User ${value}` });
  }
  return (
    <Select
      aria-label="Actor"
      placeholder="Any user"
      searchable
      clearable
      data={options}
      value={value === undefined ? null : String(value)}
      onSearchChange={(s) => {
        // The Select writes the chosen label back into its box: that is not a new search.
        if (!options.some((o) => o.label === s)) setText(s);
      }}
      onChange={(v, option) => onChange(v ? Number(v) : undefined, option?.label)}
      nothingFoundMessage={search ? 'No users found' : 'Type a name'}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
