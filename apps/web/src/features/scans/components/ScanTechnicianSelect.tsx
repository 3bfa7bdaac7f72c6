// A technician chosen by searching (part 2 §5, §6): users of the types SCAN_TECHNICIAN_TYPES (TECHNICIAN, ORG_ADMIN,
// DISTRIBUTOR_ADMIN), of one organization when given, searched 100 ms after the user types, from the first character.
// The scan filter's technician and the scan transfer's technician.
import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS } from '@sc/shared/constants';
import type { TPaginated } from '@sc/shared/list';
import { SCAN_TECHNICIAN_TYPES } from '@sc/shared/scans';
import { api } from '../../../api/client.ts';

type TechnicianOption = { id: number; first_name: string; last_name: string; username: string };

type ScanTechnicianSelectProps = {
  label: string;
  value: number | undefined;
  valueLabel?: string;
  organizationId?: number;
  onChange: (id: number | undefined, label: string | undefined) => void;
  disabled?: boolean;
  withAsterisk?: boolean;
  testId?: string;
};

export const technicianLabel = (u: TechnicianOption): string => `${u.first_name} ${u.last_name} (${u.username})`;

export function ScanTechnicianSelect({ label, value, valueLabel, organizationId, onChange, disabled, withAsterisk, testId }: ScanTechnicianSelectProps) {
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const candidates = useQuery({
    queryKey: ['scan', 'technicians', search, organizationId ?? null],
    queryFn: ({ signal }) =>
      api.list<TPaginated<TechnicianOption>>('organization/user/', {
        query: { search, user_type: SCAN_TECHNICIAN_TYPES, organization_id: organizationId, is_valid: true, limit: 20 },
        signal,
      }),
    enabled: search.length >= AUTOCOMPLETE_MIN_CHARS && !disabled,
    placeholderData: keepPreviousData,
  });
  const options = (candidates.data?.results ?? []).map((u) => ({ value: String(u.id), label: technicianLabel(u) }));
  if (value !== undefined && !options.some((o) => o.value === String(value))) {
    options.unshift({ value: String(value), label: valueLabel ?? `User ${value}` });
  }
  return (
    <Select
      label={label}
      placeholder="Type a name"
      searchable
      clearable
      disabled={disabled}
      withAsterisk={withAsterisk}
      data={options}
      value={value === undefined ? null : String(value)}
      onSearchChange={(s) => {
        // The Select writes the chosen label back into its box: that is not a new search.
        if (!options.some((o) => o.label === s)) setText(s);
      }}
      onChange={(v, option) => onChange(v ? Number(v) : undefined, option?.label)}
      nothingFoundMessage={search ? 'No technicians found' : 'Type a name'}
      comboboxProps={{ withinPortal: false }}
      data-testid={testId}
    />
  );
}
