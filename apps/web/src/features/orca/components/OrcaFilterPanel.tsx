// The ORCA list's filter panel (part 3 §2 "same layout as the cervical list", §5 age 0–100): symptoms, survivors,
// result (a finding with a symptom), family history, report file, device serial number and age. The list kit's
// FilterPopover gives the button with its badge, the age range and Clear all filters.
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { FilterPopover, FilterSelects, type FilterSelectField } from '../../../components/list/FilterPopover.tsx';
import { CLEARED_ORCA_FILTERS, countOrcaFilters, type TOrcaListState } from '../orcaListParams.ts';

const ORCA_SELECTS: readonly FilterSelectField<TOrcaListState>[] = [
  { key: 'symptoms', label: 'Symptoms' },
  { key: 'survivor', label: 'Survivors' },
  { key: 'positive', label: 'Exam result', yes: 'Abnormality found', no: 'No abnormality' },
  { key: 'history', label: 'Family history' },
  { key: 'report', label: 'Report', yes: 'With a report', no: 'Without a report' },
];

export function OrcaFilterPanel({
  state,
  onChange,
}: {
  state: TOrcaListState;
  onChange: (patch: Partial<TOrcaListState>) => void;
}) {
  const count = countOrcaFilters(state);
  const [device, setDevice] = useState(state.device ?? '');
  const commitDevice = () => {
    const next = device.trim() || undefined;
    if (next !== state.device) onChange({ device: next });
  };

  return (
    <FilterPopover
      testId="orca-filter"
      count={count}
      width={520}
      age={{ age_min: state.age_min, age_max: state.age_max }}
      onAgeChange={onChange}
      onClear={() => {
        setDevice('');
        onChange(CLEARED_ORCA_FILTERS);
      }}
    >
      <FilterSelects fields={ORCA_SELECTS} state={state} onChange={onChange} testId="orca-filter" />
      <TextInput
        label="Device serial number"
        placeholder="Exact serial number"
        value={device}
        onChange={(e) => setDevice(e.currentTarget.value)}
        onBlur={commitDevice}
        onKeyDown={(e) => e.key === 'Enter' && commitDevice()}
        data-testid="orca-filter-device"
      />
    </FilterPopover>
  );
}
