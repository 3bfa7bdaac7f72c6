// The ORCA list's filter panel (part 3 §2 "same layout as the cervical list", §5 age 0–100): symptoms, survivors,
// result (a finding with a symptom), family history, report file, device serial number and age. A badge on the
// button counts the active filters; Clear all filters resets them.
import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  RangeSlider,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { SCAN_AGE_FILTER } from '@sc/shared/scans';
import { CLEARED_ORCA_FILTERS, countOrcaFilters, type TOrcaListState } from '../orcaListParams.ts';

type YesNo = 'yes' | 'no' | undefined;

function YesNoSelect(props: {
  label: string;
  value: YesNo;
  onChange: (v: YesNo) => void;
  yes?: string;
  no?: string;
  testId: string;
}) {
  return (
    <Select
      label={props.label}
      data={[
        { value: 'any', label: 'All' },
        { value: 'yes', label: props.yes ?? 'Yes' },
        { value: 'no', label: props.no ?? 'No' },
      ]}
      value={props.value ?? 'any'}
      onChange={(v) => props.onChange(v === 'yes' || v === 'no' ? v : undefined)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      data-testid={props.testId}
    />
  );
}

export function OrcaFilterPanel({
  state,
  onChange,
}: {
  state: TOrcaListState;
  onChange: (patch: Partial<TOrcaListState>) => void;
}) {
  const [opened, setOpened] = useState(false);
  const count = countOrcaFilters(state);
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
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      width={520}
      shadow="md"
      trapFocus={false}
      closeOnEscape
    >
      <Indicator label={count} size={18} disabled={count === 0} data-testid="orca-filter-count">
        <Popover.Target>
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            onClick={() => setOpened((o) => !o)}
            aria-label={count > 0 ? `Filter, ${count} active` : 'Filter'}
            data-testid="orca-filter-button"
          >
            Filter
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <Stack gap="sm" data-testid="orca-filter-panel">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <YesNoSelect
              label="Symptoms"
              value={state.symptoms}
              onChange={(symptoms) => onChange({ symptoms })}
              testId="orca-filter-symptoms"
            />
            <YesNoSelect
              label="Survivors"
              value={state.survivor}
              onChange={(survivor) => onChange({ survivor })}
              testId="orca-filter-survivor"
            />
            <YesNoSelect
              label="Exam result"
              value={state.positive}
              yes="Abnormality found"
              no="No abnormality"
              onChange={(positive) => onChange({ positive })}
              testId="orca-filter-positive"
            />
            <YesNoSelect
              label="Family history"
              value={state.history}
              onChange={(history) => onChange({ history })}
              testId="orca-filter-history"
            />
            <YesNoSelect
              label="Report"
              value={state.report}
              yes="With a report"
              no="Without a report"
              onChange={(report) => onChange({ report })}
              testId="orca-filter-report"
            />
            <TextInput
              label="Device serial number"
              placeholder="Exact serial number"
              value={device}
              onChange={(e) => setDevice(e.currentTarget.value)}
              onBlur={commitDevice}
              onKeyDown={(e) => e.key === 'Enter' && commitDevice()}
              data-testid="orca-filter-device"
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
                onChange(CLEARED_ORCA_FILTERS);
              }}
              disabled={count === 0}
              data-testid="orca-filter-clear"
            >
              Clear all filters
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
