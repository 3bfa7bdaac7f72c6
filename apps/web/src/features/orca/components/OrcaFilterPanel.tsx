// The ORCA list's filter panel (part 3 §2 "same layout as the cervical list", §5 age 0–100): symptoms, survivors,
// result (a finding with a symptom), family history, report file, device serial number (the scan list's picker, fed
// by the device registry) and age. The list kit's FilterPopover gives the button with its badge, the age range and
// Clear all filters.
import { FilterPopover, FilterSelects, type FilterSelectField } from '../../../components/list/FilterPopover.tsx';
import { SerialAutocomplete } from '../../../components/list/SerialAutocomplete.tsx';
import { orcaDeviceLookup } from '../orca.api.ts';
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
  organizationId,
}: {
  state: TOrcaListState;
  onChange: (patch: Partial<TOrcaListState>) => void;
  /** An organization's page: its devices only. */
  organizationId?: number;
}) {
  const count = countOrcaFilters(state);

  return (
    <FilterPopover
      testId="orca-filter"
      count={count}
      width={520}
      age={{ age_min: state.age_min, age_max: state.age_max }}
      onAgeChange={onChange}
      onClear={() => onChange(CLEARED_ORCA_FILTERS)}
    >
      <FilterSelects fields={ORCA_SELECTS} state={state} onChange={onChange} testId="orca-filter" />
      <SerialAutocomplete
        key={`device-${state.device ?? ''}`}
        lookup={orcaDeviceLookup(organizationId)}
        label="Device serial number"
        value={state.device}
        onChange={(device) => device !== state.device && onChange({ device })}
        testId="orca-filter-device"
      />
    </FilterPopover>
  );
}
