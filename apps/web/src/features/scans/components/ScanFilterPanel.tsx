// The scan list's filter panel (part 2 §2.7): symptoms, survivors, result, family history, user type, age 0–100,
// device, sensor serial number, technician, scan type, replay available; assigned and duplicates for ADMIN and
// SUB_ADMIN. The list kit's FilterPopover gives the button with its badge, the age range and Clear all filters.
import { Select } from '@mantine/core';
import { SCAN_TYPES } from '@sc/shared/constants';
import { SCAN_TYPE_LABELS } from '@sc/shared/labels';
import { ROLE_LABELS } from '@sc/shared/roles';
import { SCAN_ASSIGNED_FILTERS, SCAN_RESULT_LABELS, SCAN_TECHNICIAN_TYPES } from '@sc/shared/scans';
import { FilterPopover, FilterSelects, type FilterSelectField } from '../../../components/list/FilterPopover.tsx';
import { SerialAutocomplete } from '../../../components/list/SerialAutocomplete.tsx';
import { scanSerialLookup } from '../scans.api.ts';
import { ScanTechnicianSelect } from './ScanTechnicianSelect.tsx';
import { CLEARED_FILTERS, countActiveFilters, type TScanListState } from '../scanListParams.ts';


const ASSIGNED_LABELS: Record<(typeof SCAN_ASSIGNED_FILTERS)[number], string> = {
  all_scan: 'All scans',
  unassigned: 'Unassigned scans',
  assigned: 'Assigned scans',
};

const SCAN_SELECTS: readonly FilterSelectField<TScanListState>[] = [
  { key: 'symptoms', label: 'Symptoms' },
  { key: 'survivor', label: 'Survivors' },
  { key: 'positive', label: 'Scan result', yes: SCAN_RESULT_LABELS.positive, no: SCAN_RESULT_LABELS.negative },
  { key: 'history', label: 'Family history' },
  { key: 'replay', label: 'Replay available' },
];

type ScanFilterPanelProps = {
  state: TScanListState;
  onChange: (patch: Partial<TScanListState>) => void;
  organizationId?: number;
  /** A technician's own list (re-certification): no technician filter. */
  hideTechnician: boolean;
  showAssigned: boolean;
  showDuplicates: boolean;
};

export function ScanFilterPanel({
  state,
  onChange,
  organizationId,
  hideTechnician,
  showAssigned,
  showDuplicates,
}: ScanFilterPanelProps) {
  return (
    <FilterPopover
      testId="scan-filter"
      count={countActiveFilters(state)}
      age={{ age_min: state.age_min, age_max: state.age_max }}
      onAgeChange={onChange}
      onClear={() => onChange(CLEARED_FILTERS)}
    >
      <FilterSelects fields={SCAN_SELECTS} state={state} onChange={onChange} testId="scan-filter" />
      <Select
        label="User type"
        data={SCAN_TECHNICIAN_TYPES.map((t) => ({ value: t, label: ROLE_LABELS[t] }))}
        value={state.user_type ?? null}
        onChange={(v) => onChange({ user_type: (v ?? undefined) as TScanListState['user_type'] })}
        clearable
        placeholder="All"
        comboboxProps={{ withinPortal: false }}
        data-testid="scan-filter-user-type"
      />
      <Select
        label="Scan type"
        data={SCAN_TYPES.map((t) => ({ value: t, label: SCAN_TYPE_LABELS[t] }))}
        value={state.scan_type ?? null}
        onChange={(v) => onChange({ scan_type: (v ?? undefined) as TScanListState['scan_type'] })}
        clearable
        placeholder="All"
        comboboxProps={{ withinPortal: false }}
        data-testid="scan-filter-scan-type"
      />
      <SerialAutocomplete
        key={`device-${state.device ?? ''}`}
        lookup={scanSerialLookup('devices', organizationId)}
        label="Device"
        value={state.device}
        onChange={(device) => device !== state.device && onChange({ device })}
        testId="scan-filter-device"
      />
      <SerialAutocomplete
        key={`sensor-${state.sensor ?? ''}`}
        lookup={scanSerialLookup('sensors', organizationId)}
        label="Sensor serial number"
        value={state.sensor}
        onChange={(sensor) => sensor !== state.sensor && onChange({ sensor })}
        testId="scan-filter-sensor"
      />
      {!hideTechnician && (
        <ScanTechnicianSelect
          label="Technician"
          value={state.technician}
          valueLabel={state.technician_name}
          organizationId={organizationId}
          onChange={(technician, label) =>
            onChange({ technician, technician_name: technician ? label : undefined })
          }
          testId="scan-filter-technician"
        />
      )}
      {showAssigned && (
        <Select
          label="Assigned"
          data={SCAN_ASSIGNED_FILTERS.map((f) => ({ value: f, label: ASSIGNED_LABELS[f] }))}
          value={state.assigned}
          onChange={(v) => v && onChange({ assigned: v as TScanListState['assigned'] })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          data-testid="scan-filter-assigned"
        />
      )}
      {showDuplicates && (
        <Select
          label="Duplicates"
          data={[
            { value: 'all', label: 'All scans' },
            { value: 'duplicates', label: 'Duplicates only' },
          ]}
          value={state.duplicates}
          onChange={(v) => v && onChange({ duplicates: v as TScanListState['duplicates'] })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          data-testid="scan-filter-duplicates"
        />
      )}
    </FilterPopover>
  );
}
