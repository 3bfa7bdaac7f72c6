// The scan list's filter panel (part 2 §2.7): symptoms, survivors, result, family history, user type, age 0–100,
// device, sensor serial number, technician, scan type, replay available; assigned and duplicates for ADMIN and
// SUB_ADMIN. A badge on the button counts the active filters; Clear all filters resets them.
import { useState } from 'react';
import {
  Autocomplete,
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  RangeSlider,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { AUTOCOMPLETE_DEBOUNCE_MS, SCAN_TYPES } from '@sc/shared/constants';
import { ROLE_LABELS } from '@sc/shared/roles';
import { SCAN_AGE_FILTER, SCAN_ASSIGNED_FILTERS, SCAN_TECHNICIAN_TYPES } from '@sc/shared/scans';
import { useScanSerialLookup } from '../scans.api.ts';
import { ScanTechnicianSelect } from './ScanTechnicianSelect.tsx';
import { CLEARED_FILTERS, countActiveFilters, type TScanListState } from '../scanListParams.ts';

export const SCAN_TYPE_LABELS: Record<(typeof SCAN_TYPES)[number], string> = {
  SCAN: 'Scan',
  TRAINING: 'Training',
  PRACTICE: 'Practice',
  PRE_TRAINING: 'Pre-training',
};

const ASSIGNED_LABELS: Record<(typeof SCAN_ASSIGNED_FILTERS)[number], string> = {
  all_scan: 'All scans',
  unassigned: 'Unassigned scans',
  assigned: 'Assigned scans',
};

type YesNo = 'yes' | 'no' | undefined;

type ScanFilterPanelProps = {
  state: TScanListState;
  onChange: (patch: Partial<TScanListState>) => void;
  organizationId?: number;
  /** A technician's own list (re-certification): no technician filter. */
  hideTechnician: boolean;
  showAssigned: boolean;
  showDuplicates: boolean;
};

function YesNoSelect({ label, value, onChange, yes = 'Yes', no = 'No', testId }: {
  label: string;
  value: YesNo;
  onChange: (v: YesNo) => void;
  yes?: string;
  no?: string;
  testId: string;
}) {
  return (
    <Select
      label={label}
      data={[
        { value: 'any', label: 'All' },
        { value: 'yes', label: yes },
        { value: 'no', label: no },
      ]}
      value={value ?? 'any'}
      onChange={(v) => onChange(v === 'yes' || v === 'no' ? v : undefined)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      data-testid={testId}
    />
  );
}

function SerialAutocomplete({ kind, label, value, onChange, organizationId, testId }: {
  kind: 'devices' | 'sensors';
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  organizationId?: number;
  testId: string;
}) {
  const [text, setText] = useState(value ?? '');
  const [search] = useDebouncedValue(text.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const lookup = useScanSerialLookup(kind, search, organizationId);
  return (
    <Autocomplete
      label={label}
      placeholder="Type to search"
      value={text}
      data={lookup.data ?? []}
      onChange={(v) => {
        setText(v);
        if (v.trim() === '') onChange(undefined);
      }}
      onOptionSubmit={(v) => onChange(v)}
      onBlur={() => onChange(text.trim() || undefined)}
      comboboxProps={{ withinPortal: false }}
      data-testid={testId}
    />
  );
}

export function ScanFilterPanel({ state, onChange, organizationId, hideTechnician, showAssigned, showDuplicates }: ScanFilterPanelProps) {
  const [opened, setOpened] = useState(false);
  const count = countActiveFilters(state);
  const [age, setAge] = useState<[number, number]>([state.age_min ?? SCAN_AGE_FILTER.min, state.age_max ?? SCAN_AGE_FILTER.max]);

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={560} shadow="md" trapFocus={false} closeOnEscape>
      <Indicator label={count} size={18} disabled={count === 0} data-testid="scan-filter-count">
        <Popover.Target>
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            onClick={() => setOpened((o) => !o)}
            aria-label={count > 0 ? `Filter, ${count} active` : 'Filter'}
            data-testid="scan-filter-button"
          >
            Filter
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <ScrollArea.Autosize mah="70vh" type="auto">
          <Stack gap="sm" data-testid="scan-filter-panel">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <YesNoSelect label="Symptoms" value={state.symptoms} onChange={(symptoms) => onChange({ symptoms })} testId="scan-filter-symptoms" />
              <YesNoSelect label="Survivors" value={state.survivor} onChange={(survivor) => onChange({ survivor })} testId="scan-filter-survivor" />
              <YesNoSelect
                label="Scan result"
                value={state.positive}
                yes="Positive"
                no="Negative"
                onChange={(positive) => onChange({ positive })}
                testId="scan-filter-positive"
              />
              <YesNoSelect label="Family history" value={state.history} onChange={(history) => onChange({ history })} testId="scan-filter-history" />
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
                kind="devices"
                label="Device"
                value={state.device}
                onChange={(device) => device !== state.device && onChange({ device })}
                organizationId={organizationId}
                testId="scan-filter-device"
              />
              <SerialAutocomplete
                key={`sensor-${state.sensor ?? ''}`}
                kind="sensors"
                label="Sensor serial number"
                value={state.sensor}
                onChange={(sensor) => sensor !== state.sensor && onChange({ sensor })}
                organizationId={organizationId}
                testId="scan-filter-sensor"
              />
              {!hideTechnician && (
                <ScanTechnicianSelect
                  label="Technician"
                  value={state.technician}
                  valueLabel={state.technician_name}
                  organizationId={organizationId}
                  onChange={(technician, label) => onChange({ technician, technician_name: technician ? label : undefined })}
                  testId="scan-filter-technician"
                />
              )}
              <YesNoSelect label="Replay available" value={state.replay} onChange={(replay) => onChange({ replay })} testId="scan-filter-replay" />
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
            </SimpleGrid>
            <Stack gap={4}>
              <Group justify="space-between">
                <Text size="sm" fw={500}>
                  Age
                </Text>
                <Badge variant="light" data-testid="scan-filter-age-label">
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
                data-testid="scan-filter-age"
              />
            </Stack>
            <Group justify="flex-end">
              <Button
                variant="subtle"
                onClick={() => {
                  setAge([SCAN_AGE_FILTER.min, SCAN_AGE_FILTER.max]);
                  onChange(CLEARED_FILTERS);
                }}
                disabled={count === 0}
                data-testid="scan-filter-clear"
              >
                Clear all filters
              </Button>
            </Group>
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
