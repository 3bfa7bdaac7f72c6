// A technician of one organization chosen by searching (part 2 §5, §6, §9): valid users of the given types
// (TECHNICIAN for a patient; TECHNICIAN, ORG_ADMIN, DISTRIBUTOR_ADMIN for a patient or scan transfer) of
// `organizationId`, read from `GET organization/user/?organization_id=&user_type=&is_valid=true&search=`: the first
// page (by first name) as soon as the picker opens, so a clinic's few technicians are chosen without typing (issue
// 23.16), then searched on the server 100 ms after the user types, from the first character. Disabled until an
// organization is known. Used by the patient dialog, the patient transfer dialog and the scan transfer dialog.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import type { TOrganizationUser, TOrganizationUserList } from '@sc/shared/users';
import { api } from '../api/client.ts';

/** What the picker hands back of the chosen user. */
export type PickedTechnician = Pick<TOrganizationUser, 'id' | 'first_name' | 'last_name' | 'username' | 'user_type'>;

export const technicianOptionLabel = (u: Pick<TOrganizationUser, 'first_name' | 'last_name' | 'username'>): string => {
  const name = `${u.first_name} ${u.last_name}`.trim();
  return name ? `${name} (${u.username})` : u.username;
};

type TechnicianPickerProps = {
  /** The organization whose users are candidates; null: the picker waits for one. */
  organizationId: number | null;
  /** The user types offered (default TECHNICIAN). */
  userTypes?: readonly TUserType[];
  value: number | null;
  /** The label of `value` when it was chosen elsewhere (a patient's current technician). */
  valueLabel?: string;
  onChange: (id: number | null, user: PickedTechnician | null) => void;
  error?: string;
  label?: string;
  placeholder?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  testId?: string;
};

type Option = { value: string; label: string };

export function TechnicianPicker({
  organizationId,
  userTypes = ['TECHNICIAN'],
  value,
  valueLabel,
  onChange,
  error,
  label = 'Technician',
  placeholder,
  withAsterisk = true,
  disabled,
  readOnly,
  testId = 'technician-picker',
}: TechnicianPickerProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  const typed = search.trim();
  const shownLabel = picked && value !== null && picked.value === String(value) ? picked.label : valueLabel;
  // Mantine writes the chosen label into the box: that text is not a new search.
  const term = typed === '' || search === shownLabel ? '' : typed;
  const [debounced] = useDebouncedValue(term, AUTOCOMPLETE_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);
  // Opened with nothing typed: the first page; typed: the search (once debounced).
  const searching =
    organizationId !== null &&
    (term === '' ? opened : debounced.length >= AUTOCOMPLETE_MIN_CHARS && debounced !== '');
  const params = {
    organization_id: organizationId ?? undefined,
    user_type: userTypes.join(','),
    is_valid: true,
    search: term === '' ? '' : debounced,
    limit: 20,
    ordering: 'first_name',
  };
  // Under the user keys, so a saved user refreshes the choices too.
  const candidates = useQuery({
    queryKey: ['organization-user', 'list', 'picker', params],
    queryFn: ({ signal }) => api.list<TOrganizationUserList>('organization/user/', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled: searching,
  });

  const records = useMemo(() => new Map((candidates.data?.results ?? []).map((u) => [String(u.id), u])), [candidates.data]);

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (value !== null && shownLabel) options.set(String(value), shownLabel);
    if (searching) for (const u of candidates.data?.results ?? []) options.set(String(u.id), technicianOptionLabel(u));
    return [...options].map(([v, optionLabel]) => ({ value: v, label: optionLabel }));
  }, [candidates.data, searching, value, shownLabel]);

  const waiting = organizationId === null;
  return (
    <Select
      label={label}
      placeholder={placeholder ?? (waiting ? 'Choose an organization first' : 'Search by name')}
      withAsterisk={withAsterisk}
      searchable
      clearable={!readOnly}
      disabled={disabled || waiting}
      readOnly={readOnly}
      data={data}
      value={value === null ? null : String(value)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={candidates.isFetching ? 'Searching…' : 'No technician found'}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      rightSection={searching && candidates.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        const record = v ? records.get(v) : undefined;
        onChange(
          v ? Number(v) : null,
          record
            ? { id: record.id, first_name: record.first_name, last_name: record.last_name, username: record.username, user_type: record.user_type }
            : null,
        );
      }}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
