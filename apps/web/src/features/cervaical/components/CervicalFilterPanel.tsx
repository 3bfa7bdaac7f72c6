// The cervical list's filter panel (part 3 §2, §5 age 0–100, §7 filters): reviewer 1 and 2 status, technician,
// device serial number, survivors, result, findings, symptoms, family history, the reviewers' disagreement and age.
// A badge on the button counts the active filters; Clear all filters resets them.
import { useState } from 'react';
import { Badge, Button, Group, Indicator, Popover, RangeSlider, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { REVIEWER_STATUSES } from '@sc/shared/constants';
import { REVIEWER_STATUS_LABELS, type TReviewerStatus } from '@sc/shared/cervical';
import { SCAN_AGE_FILTER } from '@sc/shared/scans';
import { ScanTechnicianSelect } from '../../scans/components/ScanTechnicianSelect.tsx';
import { CLEARED_CERVICAL_FILTERS, countCervicalFilters, type TCervicalListState } from '../cervicalListParams.ts';

type YesNo = 'yes' | 'no' | undefined;

function Choice<T extends string>(props: {
  label: string;
  value: T | undefined;
  options: { value: T; label: string }[];
  onChange: (v: T | undefined) => void;
  testId: string;
}) {
  return (
    <Select
      label={props.label}
      data={[{ value: 'any', label: 'All' }, ...props.options]}
      value={props.value ?? 'any'}
      onChange={(v) => props.onChange(v === 'any' || v === null ? undefined : (v as T))}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      data-testid={props.testId}
    />
  );
}

const yesNo = (yes = 'Yes', no = 'No') => [
  { value: 'yes' as const, label: yes },
  { value: 'no' as const, label: no },
];
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
  const [opened, setOpened] = useState(false);
  const count = countCervicalFilters(state);
  const [age, setAge] = useState<[number, number]>([
    state.age_min ?? SCAN_AGE_FILTER.min,
    state.age_max ?? SCAN_AGE_FILTER.max,
  ]);
  const [device, setDevice] = useState(state.device ?? '');
  const commitDevice = () => {
    const next = device.trim() || undefined;
    if (next !== state.device) onChange({ device: next });
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={560} shadow="md" trapFocus={false} closeOnEscape>
      <Indicator label={count} size={18} disabled={count === 0} data-testid="cervical-filter-count">
        <Popover.Target>
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            onClick={() => setOpened((o) => !o)}
            aria-label={count > 0 ? `Filter, ${count} active` : 'Filter'}
            data-testid="cervical-filter-button"
          >
            Filter
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <Stack gap="sm" data-testid="cervical-filter-panel">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Choice<TReviewerStatus>
              label="Reviewer 1"
              value={state.reviewer1}
              options={statuses}
              onChange={(reviewer1) => onChange({ reviewer1 })}
              testId="cervical-filter-reviewer1"
            />
            <Choice<TReviewerStatus>
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
            <Choice<'yes' | 'no'>
              label="Survivors"
              value={state.survivor as YesNo}
              options={yesNo()}
              onChange={(survivor) => onChange({ survivor })}
              testId="cervical-filter-survivor"
            />
            <Choice<'yes' | 'no'>
              label="Exam result"
              value={state.positive as YesNo}
              options={yesNo('Positive', 'Negative')}
              onChange={(positive) => onChange({ positive })}
              testId="cervical-filter-positive"
            />
            <Choice<'yes' | 'no'>
              label="Findings"
              value={state.findings as YesNo}
              options={yesNo('With findings', 'No findings')}
              onChange={(findings) => onChange({ findings })}
              testId="cervical-filter-findings"
            />
            <Choice<'yes' | 'no'>
              label="Symptoms"
              value={state.symptoms as YesNo}
              options={yesNo()}
              onChange={(symptoms) => onChange({ symptoms })}
              testId="cervical-filter-symptoms"
            />
            <Choice<'yes' | 'no'>
              label="Family history"
              value={state.history as YesNo}
              options={yesNo()}
              onChange={(history) => onChange({ history })}
              testId="cervical-filter-history"
            />
            <Choice<'pending' | 'adjudicated' | 'all'>
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
          </SimpleGrid>
          <Stack gap={4}>
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                Age
              </Text>
              <Badge variant="light">
                {age[0]} – {age[1]}
              </Badge>
            </Group>
            <RangeSlider
              min={SCAN_AGE_FILTER.min}
              max={SCAN_AGE_FILTER.max}
              value={age}
              onChange={setAge}
              onChangeEnd={([min, max]) =>
                onChange({
                  age_min: min > SCAN_AGE_FILTER.min ? min : undefined,
                  age_max: max < SCAN_AGE_FILTER.max ? max : undefined,
                })
              }
              thumbFromLabel="Minimum age"
              thumbToLabel="Maximum age"
              mb="sm"
            />
          </Stack>
          <Group justify="flex-end">
            <Button
              variant="subtle"
              onClick={() => {
                setAge([SCAN_AGE_FILTER.min, SCAN_AGE_FILTER.max]);
                setDevice('');
                onChange(CLEARED_CERVICAL_FILTERS);
              }}
              disabled={count === 0}
              data-testid="cervical-filter-clear"
            >
              Clear all filters
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
