// The organization a device is linked or transferred to (part 2 §2.4, §5, §9): any organization in the caller's
// scope, searched on the server 100 ms after the user types, from the first character. The organization form's
// parent picker searches distributors only, so this one asks `organization/` without that filter.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import { useOrganizations } from '../../organizations/organizations.api.ts';

type OrganizationPickerProps = {
  value: number | null;
  /** The device's current organization: not a transfer target. */
  excludeId?: number | null;
  error?: string;
  onChange: (id: number | null) => void;
};

type Option = { value: string; label: string };

export function OrganizationPicker({ value, excludeId, error, onChange }: OrganizationPickerProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  const typed = search.trim();
  // Mantine writes the chosen label into the box: that text is not a new search.
  const term = typed === '' || search === picked?.label ? '' : typed;
  const [debounced] = useDebouncedValue(term, AUTOCOMPLETE_DEBOUNCE_MS);
  const searching = debounced.length >= AUTOCOMPLETE_MIN_CHARS && term !== '';
  const candidates = useOrganizations({ search: debounced, limit: 10, ordering: 'name' }, { enabled: searching });

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (picked && value !== null && picked.value === String(value)) options.set(picked.value, picked.label);
    if (searching) {
      for (const o of candidates.data?.results ?? []) {
        if (o.id !== excludeId) options.set(String(o.id), o.country ? `${o.name} (${o.country})` : o.name);
      }
    }
    return [...options].map(([v, label]) => ({ value: v, label }));
  }, [candidates.data, searching, picked, value, excludeId]);

  return (
    <Select
      label="Organization"
      placeholder="Search organizations"
      withAsterisk
      searchable
      clearable
      data={data}
      value={value === null ? null : String(value)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={term === '' ? 'Type an organization’s name' : candidates.isFetching ? 'Searching…' : 'No organization found'}
      rightSection={searching && candidates.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        onChange(v ? Number(v) : null);
      }}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid="device-organization-picker"
    />
  );
}
