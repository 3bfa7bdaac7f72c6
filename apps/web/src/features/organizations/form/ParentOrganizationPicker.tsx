// Parent organization picker (part 1 §2.5, §6, §9): ADMIN and SUB_ADMIN choose among distributors, searched on
// the server 100 ms after the user types, from the first character; opening the picker asks nothing.
// Mantine writes the chosen option's label into the search box: that text is not a search, and every option of
// one organization carries the same label, so choosing (or loading) a parent never starts a query of its own.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import type { TOrganizationListItem } from '@sc/shared/organizations';
import { useOrganization } from '../organizations.api.ts';
import { useParentCandidates } from './organizationForm.api.ts';

type ParentOrganizationPickerProps = {
  value: number | null;
  /** The organization being edited: never its own parent. */
  excludeId?: number;
  error?: string;
  onChange: (id: number | null) => void;
};

/** 'North Distributor (India)': the one label of an organization, in the results and once chosen. */
export const parentLabel = (o: Pick<TOrganizationListItem, 'name' | 'country'>): string =>
  o.country ? `${o.name} (${o.country})` : o.name;

type Option = { value: string; label: string };

export function ParentOrganizationPicker({ value, excludeId, error, onChange }: ParentOrganizationPickerProps) {
  const [search, setSearch] = useState('');
  // The option last chosen here: its label is known before the parent's own record arrives.
  const [picked, setPicked] = useState<Option | null>(null);
  // The chosen parent's label when it is not among the current results (an edited sub-organization).
  const selected = useOrganization(value ?? undefined);
  const selectedLabel =
    value === null
      ? undefined
      : selected.data
        ? parentLabel(selected.data)
        : picked?.value === String(value)
          ? picked.label
          : undefined;

  const typed = search.trim();
  const term = typed === '' || search === selectedLabel ? '' : typed;
  const [debounced] = useDebouncedValue(term, AUTOCOMPLETE_DEBOUNCE_MS);
  const searching = debounced.length >= AUTOCOMPLETE_MIN_CHARS && term !== '';
  const candidates = useParentCandidates(debounced, searching);

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (value !== null && selectedLabel !== undefined) options.set(String(value), selectedLabel);
    if (searching) {
      for (const o of candidates.data?.results ?? []) {
        if (o.id !== excludeId) options.set(String(o.id), parentLabel(o));
      }
    }
    return [...options].map(([v, label]) => ({ value: v, label }));
  }, [candidates.data, searching, selectedLabel, value, excludeId]);

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
      nothingFoundMessage={
        term === '' ? 'Type a distributor’s name' : candidates.isFetching ? 'Searching…' : 'No distributor found'
      }
      rightSection={searching && candidates.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        onChange(v ? Number(v) : null);
      }}
      error={error}
      data-testid="org-parent"
    />
  );
}
