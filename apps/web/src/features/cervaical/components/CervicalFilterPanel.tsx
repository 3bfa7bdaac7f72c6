// The cervical list's filter panel (part 3 §2, §5 age 0–100, §7 filters): reviewer 1 and 2 status, technician,
// device serial number, survivors, result, findings, symptoms, family history, the reviewers' disagreement and age.
// The list kit's FilterPopover gives the button with its badge, the age range and Clear all filters. The device
// serial number is the kit's picker fed by the device registry, as on the ORCA list (GET cervaical/?device= matches
// any serial exactly, in any case); a role that may not read devices (CERVAICAL_REVIEWER) types the serial number.
import { REVIEWER_STATUSES } from '@sc/shared/constants';
import { REVIEWER_STATUS_LABELS } from '@sc/shared/cervical';
import { FilterPopover, FilterSelects, type FilterSelectField } from '../../../components/list/FilterPopover.tsx';
import { SerialAutocomplete } from '../../../components/list/SerialAutocomplete.tsx';
import { orcaDeviceLookup } from '../../orca/orca.api.ts';
import { ScanTechnicianSelect } from '../../scans/components/ScanTechnicianSelect.tsx';
import {
  CLEARED_CERVICAL_FILTERS,
  countCervicalFilters,
  type TCervicalListState,
} from '../cervicalListParams.ts';

const statuses = REVIEWER_STATUSES.map((s) => ({ value: s, label: REVIEWER_STATUS_LABELS[s] }));

const CERVICAL_SELECTS: readonly FilterSelectField<TCervicalListState>[] = [
  { key: 'reviewer1', label: 'Reviewer 1', options: statuses },
  { key: 'reviewer2', label: 'Reviewer 2', options: statuses },
  { key: 'survivor', label: 'Survivors' },
  { key: 'positive', label: 'Exam result', yes: 'Positive', no: 'Negative' },
  { key: 'findings', label: 'Findings', yes: 'With findings', no: 'No findings' },
  { key: 'symptoms', label: 'Symptoms' },
  { key: 'history', label: 'Family history' },
  {
    key: 'disagreement',
    label: 'Reviewers disagree',
    options: [
      { value: 'pending', label: 'Waiting for a final read' },
      { value: 'adjudicated', label: 'Final read done' },
      { value: 'all', label: 'All disagreements' },
    ],
  },
];

export function CervicalFilterPanel({
  state,
  onChange,
  organizationId,
  readsDevices,
  readsUsers,
}: {
  state: TCervicalListState;
  onChange: (patch: Partial<TCervicalListState>) => void;
  /** An organization's page: its technicians and devices only. */
  organizationId?: number;
  /** The role may read the device registry (canDevice 'device.read'): the device picker offers its serials. */
  readsDevices: boolean;
  /** The role may read the user list (canListUsers): the technician picker searches it. CERVAICAL_REVIEWER may not. */
  readsUsers: boolean;
}) {
  const count = countCervicalFilters(state);

  return (
    <FilterPopover
      testId="cervical-filter"
      count={count}
      age={{ age_min: state.age_min, age_max: state.age_max }}
      onAgeChange={onChange}
      onClear={() => onChange(CLEARED_CERVICAL_FILTERS)}
    >
      <FilterSelects fields={CERVICAL_SELECTS} state={state} onChange={onChange} testId="cervical-filter" />
      {readsUsers && (
        <ScanTechnicianSelect
          label="Technician"
          value={state.technician}
          valueLabel={state.technician_label}
          organizationId={organizationId}
          onChange={(technician, technician_label) => onChange({ technician, technician_label })}
          testId="cervical-filter-technician"
        />
      )}
      <SerialAutocomplete
        key={`device-${state.device ?? ''}`}
        lookup={readsDevices ? orcaDeviceLookup(organizationId) : undefined}
        label="Device serial number"
        value={state.device}
        onChange={(device) => device !== state.device && onChange({ device })}
        testId="cervical-filter-device"
      />
    </FilterPopover>
  );
}
