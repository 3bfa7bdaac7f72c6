// Parent organization picker (part 1 §2.5, §6): ADMIN and SUB_ADMIN choose among distributors, searched on the
// server after 100 ms from the first character.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '@sc/shared/constants';
import { useOrganization } from '../organizations.api.ts';
import { useParentCandidates } from './organizationForm.api.ts';

type ParentOrganizationPickerProps = {
  value: number | null;
  /** The organization being edited: never its own parent. */
  excludeId?: number;
  error?: string;
  onChange: (id: number | null) => void;
};

export function ParentOrganizationPicker({ value, excludeId, error, onChange }: ParentOrganizationPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const candidates = useParentCandidates(debounced, true);
  // The chosen parent's name, when it is not among the current results.
  const selected = useOrganization(value ?? undefined);

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (value !== null && selected.data) options.set(String(value), selected.data.name);
    for (const o of candidates.data?.results ?? []) {
      if (o.id !== excludeId) options.set(String(o.id), `${o.name}${o.country ? ` (${o.country})` : ''}`);
    }
    return [...options].map(([v, label]) => ({ value: v, label }));
  }, [candidates.data, selected.data, value, excludeId]);

  return (
    <Select
      label="Parent organization"
      placeholder="Search distributors"
      searchable
      clearable
      data={data}
      value={value === null ? null : String(value)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={candidates.isFetching ? 'Searching…' : 'No distributor found'}
      rightSection={candidates.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(v) => onChange(v ? Number(v) : null)}
      error={error}
      data-testid="org-parent"
    />
  );
}
