// The cervical list's filter panel (part 3 §2, §5 age 0–100, §7 filters): reviewer 1 and 2 status, technician,
// device serial number, survivors, result, findings, symptoms, family history, the reviewers' disagreement and age.
// The list kit's FilterPopover gives the button with its badge, the age range and Clear all filters.
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { REVIEWER_STATUSES } from '@sc/shared/constants';
import { REVIEWER_STATUS_LABELS, type TReviewerStatus } from '@sc/shared/cervical';
import { ChoiceSelect, FilterPopover, YesNoSelect } from '../../../components/list/FilterPopover.tsx';
import { ScanTechnicianSelect } from '../../scans/components/ScanTechnicianSelect.tsx';
import {
  CLEARED_CERVICAL_FILTERS,
  countCervicalFilters,
  type TCervicalListState,
} from '../cervicalListParams.ts';

const statuses = REVIEWER_STATUSES.map((s) => ({ value: s, label: REVIEWER_STATUS_LABELS[s] }));

export function CervicalFilterPanel({
  state,
  onChange,
  organizationId,
}: {
  state: TCervicalListState;
  onChange: (patch: Partial<TCervicalListState>) => void;
  organizationId?: number;
}) {
  const count = countCervicalFilters(state);
  const [device, setDevice] = useState(state.device ?? '');
  const commitDevice = () => {
    const next = device.trim() || undefined;
    if (next !== state.device) onChange({ device: next });
  };

  return (
    <FilterPopover
      testId="cervical-filter"
      count={count}
      age={{ age_min: state.age_min, age_max: state.age_max }}
      onAgeChange={onChange}
      onClear={() => {
        setDevice('');
        onChange(CLEARED_CERVICAL_FILTERS);
      }}
    >
      <ChoiceSelect<TReviewerStatus>
        label="Reviewer 1"
        value={state.reviewer1}
        options={statuses}
        onChange={(reviewer1) => onChange({ reviewer1 })}
        testId="cervical-filter-reviewer1"
      />
      <ChoiceSelect<TReviewerStatus>
        label="Reviewer 2"
        value={state.reviewer2}
        options={statuses}
        onChange={(reviewer2) => onChange({ reviewer2 })}
        testId="cervical-filter-reviewer2"
      />
      <ScanTechnicianSelect
        label="Technician"
        value={state.technician}
        valueLabel={state.technician_label}
        organizationId={organizationId}
        onChange={(technician, technician_label) => onChange({ technician, technician_label })}
        testId="cervical-filter-technician"
      />
      <TextInput
        label="Device serial number"
        placeholder="Exact serial number"
        value={device}
        onChange={(e) => setDevice(e.currentTarget.value)}
        onBlur={commitDevice}
        onKeyDown={(e) => e.key === 'Enter' && commitDevice()}
        data-testid="cervical-filter-device"
      />
      <YesNoSelect
        label="Survivors"
        value={state.survivor}
        onChange={(survivor) => onChange({ survivor })}
        testId="cervical-filter-survivor"
      />
      <YesNoSelect
        label="Exam result"
        value={state.positive}
        yes="Positive"
        no="Negative"
        onChange={(positive) => onChange({ positive })}
        testId="cervical-filter-positive"
      />
      <YesNoSelect
        label="Findings"
        value={state.findings}
        yes="With findings"
        no="No findings"
        onChange={(findings) => onChange({ findings })}
        testId="cervical-filter-findings"
      />
      <YesNoSelect
        label="Symptoms"
        value={state.symptoms}
        onChange={(symptoms) => onChange({ symptoms })}
        testId="cervical-filter-symptoms"
      />
      <YesNoSelect
        label="Family history"
        value={state.history}
        onChange={(history) => onChange({ history })}
        testId="cervical-filter-history"
      />
      <ChoiceSelect<'pending' | 'adjudicated' | 'all'>
        label="Reviewers disagree"
        value={state.disagreement}
        options={[
          { value: 'pending', label: 'Waiting for a final read' },
          { value: 'adjudicated', label: 'Final read done' },
          { value: 'all', label: 'All disagreements' },
        ]}
        onChange={(disagreement) => onChange({ disagreement })}
        testId="cervical-filter-disagreement"
      />
    </FilterPopover>
  );
}
