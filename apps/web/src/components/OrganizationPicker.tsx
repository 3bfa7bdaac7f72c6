// An organization chosen by searching (part 2 §2.3, §2.4, §5, §9): any organization in the caller's scope, searched
// on the server 100 ms after the user types, from the first character, never on opening. Used by the device Link or
// Transfer dialog, the user dialog, the Transfer User dialog and a manager's organization links. The organization
// form's parent picker (distributors only) is `ParentOrganizationPicker`.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import type { TOrganizationList, TOrganizationListItem } from '@sc/shared/organizations';
import { api } from '../api/client.ts';

/** What a picker knows of the chosen organization (the user form reads the distributor flag). */
export type PickedOrganization = Pick<TOrganizationListItem, 'id' | 'name' | 'can_create_organization'> & {
  country?: string | null;
};

type OrganizationPickerProps = {
  value: number | null;
  /** The label of `value` when it was chosen elsewhere (an existing user's organization). */
  valueLabel?: string;
  /** Organizations that are not choices: a device's or user's current one, a manager's linked ones. */
  excludeIds?: readonly (number | null | undefined)[];
  error?: string;
  onChange: (id: number | null, organization: PickedOrganization | null) => void;
  label?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  testId?: string;
  /** Choices read per search (the re-certification filter reads 5, part 2 §7). */
  limit?: number;
  /** False inside a popover, so a click on a choice is not a click outside it. */
  withinPortal?: boolean;
};

type Option = { value: string; label: string };

export const organizationOptionLabel = (o: { name: string; country?: string | null }): string =>
  o.country ? `${o.name} (${o.country})` : o.name;

export function OrganizationPicker({
  value,
  valueLabel,
  excludeIds = [],
  error,
  onChange,
  label = 'Organization',
  withAsterisk = true,
  disabled,
  readOnly,
  testId = 'organization-picker',
  limit = 10,
  withinPortal = true,
}: OrganizationPickerProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  const typed = search.trim();
  const shownLabel = picked && value !== null && picked.value === String(value) ? picked.label : valueLabel;
  // Mantine writes the chosen label into the box: that text is not a new search.
  const term = typed === '' || search === shownLabel ? '' : typed;
  const [debounced] = useDebouncedValue(term, AUTOCOMPLETE_DEBOUNCE_MS);
  const searching = debounced.length >= AUTOCOMPLETE_MIN_CHARS && term !== '';
  const params = { search: debounced, limit, ordering: 'name' };
  // Under the organization keys, so a saved organization refreshes the choices too.
  const candidates = useQuery({
    queryKey: ['organization', 'list', params],
    queryFn: ({ signal }) => api.list<TOrganizationList>('organization/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled: searching,
  });

  const records = useMemo(() => new Map((candidates.data?.results ?? []).map((o) => [String(o.id), o])), [candidates.data]);

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (value !== null && shownLabel) options.set(String(value), shownLabel);
    if (searching) {
      for (const o of candidates.data?.results ?? []) {
        if (!excludeIds.includes(o.id)) options.set(String(o.id), organizationOptionLabel(o));
      }
    }
    return [...options].map(([v, optionLabel]) => ({ value: v, label: optionLabel }));
  }, [candidates.data, searching, value, shownLabel, excludeIds]);

  return (
    <Select
      label={label}
      placeholder="Search organizations"
      withAsterisk={withAsterisk}
      searchable
      clearable={!readOnly}
      disabled={disabled}
      readOnly={readOnly}
      data={data}
      value={value === null ? null : String(value)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={term === '' ? 'Type an organization’s name' : candidates.isFetching ? 'Searching…' : 'No organization found'}
      rightSection={searching && candidates.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        const record = v ? records.get(v) : undefined;
        onChange(
          v ? Number(v) : null,
          record
            ? { id: record.id, name: record.name, country: record.country, can_create_organization: record.can_create_organization }
            : null,
        );
      }}
      error={error}
      comboboxProps={{ withinPortal }}
      data-testid={testId}
    />
  );
}
