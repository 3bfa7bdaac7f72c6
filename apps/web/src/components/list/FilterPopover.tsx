// The Filter button of a list with its popover (part 2 §2.7, part 3 §2): a badge counting the active filters, the
// list's own fields, the age range (part 3 §5: 0–100, sent only when narrowed) and Clear all filters. Used by the
// breast scan, patient, cervical and ORCA filter panels.
import { useState, type ReactNode } from 'react';
import {
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
import { IconFilter } from '@tabler/icons-react';
import { SCAN_AGE_FILTER } from '@sc/shared/scans';
import { useEscapeToClose } from './useEscapeToClose.ts';

export type AgeRange = { age_min?: number; age_max?: number };

/** The slider's ends as list state: an end at the limit of the range is no filter. */
export function ageRangeToState([min, max]: [number, number]): AgeRange {
  return {
    age_min: min > SCAN_AGE_FILTER.min ? min : undefined,
    age_max: max < SCAN_AGE_FILTER.max ? max : undefined,
  };
}

type FilterPopoverProps = {
  /** The test id prefix: `<p>-button`, `<p>-count`, `<p>-panel`, `<p>-age`, `<p>-age-label`, `<p>-clear`. */
  testId: string;
  /** Active filters (the badge; Clear is disabled at 0). */
  count: number;
  /** The list's age filter; leave out for a list without one. */
  age?: AgeRange;
  onAgeChange?: (age: AgeRange) => void;
  /** Clear all filters: reset the list's own fields (the age slider resets itself). */
  onClear: () => void;
  width?: number;
  /** The list's fields, laid out two a row from a small tablet up. */
  children: ReactNode;
};

export function FilterPopover({
  testId,
  count,
  age,
  onAgeChange,
  onClear,
  width = 560,
  children,
}: FilterPopoverProps) {
  const [opened, setOpened] = useState(false);
  const [ages, setAges] = useState<[number, number]>([
    age?.age_min ?? SCAN_AGE_FILTER.min,
    age?.age_max ?? SCAN_AGE_FILTER.max,
  ]);
  useEscapeToClose(opened, () => setOpened(false));

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      width={width}
      shadow="md"
      trapFocus={false}
      closeOnEscape
    >
      <Indicator label={count} size={18} disabled={count === 0} data-testid={`${testId}-count`}>
        <Popover.Target>
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            onClick={() => setOpened((o) => !o)}
            aria-label={count > 0 ? `Filter, ${count} active` : 'Filter'}
            data-testid={`${testId}-button`}
          >
            Filter
          </Button>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown maw="calc(100vw - 24px)">
        <ScrollArea.Autosize mah="70vh" type="auto">
          <Stack gap="sm" data-testid={`${testId}-panel`}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {children}
            </SimpleGrid>
            {age && onAgeChange && (
              <Stack gap={4}>
                <Group justify="space-between">
                  <Text size="sm" fw={500}>
                    Age
                  </Text>
                  <Badge variant="light" data-testid={`${testId}-age-label`}>
                    {ages[0]} – {ages[1]}
                  </Badge>
                </Group>
                <RangeSlider
                  min={SCAN_AGE_FILTER.min}
                  max={SCAN_AGE_FILTER.max}
                  value={ages}
                  onChange={setAges}
                  onChangeEnd={(range) => onAgeChange(ageRangeToState(range))}
                  thumbFromLabel="Minimum age"
                  thumbToLabel="Maximum age"
                  mb="sm"
                  data-testid={`${testId}-age`}
                />
              </Stack>
            )}
            <Group justify="flex-end">
              <Button
                variant="subtle"
                onClick={() => {
                  setAges([SCAN_AGE_FILTER.min, SCAN_AGE_FILTER.max]);
                  onClear();
                }}
                disabled={count === 0}
                data-testid={`${testId}-clear`}
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

export type YesNo = 'yes' | 'no' | undefined;

/** All / Yes / No (or the list's words for them); All is no filter. */
export function YesNoSelect({
  label,
  value,
  onChange,
  yes = 'Yes',
  no = 'No',
  testId,
}: {
  label: string;
  value: YesNo;
  onChange: (v: YesNo) => void;
  yes?: string;
  no?: string;
  testId: string;
}) {
  return (
    <ChoiceSelect<'yes' | 'no'>
      label={label}
      value={value}
      options={[
        { value: 'yes', label: yes },
        { value: 'no', label: no },
      ]}
      onChange={onChange}
      testId={testId}
    />
  );
}

/** All or one of `options`; All is no filter. */
export function ChoiceSelect<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T | undefined;
  options: { value: T; label: string }[];
  onChange: (v: T | undefined) => void;
  testId: string;
}) {
  return (
    <Select
      label={label}
      data={[{ value: 'any', label: 'All' }, ...options]}
      value={value ?? 'any'}
      onChange={(v) => onChange(options.find((o) => o.value === v)?.value)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      data-testid={testId}
    />
  );
}

/** A field of a panel's table of selects: yes/no (`YesNoSelect`, in the list's words) or one of `options`. */
export type FilterSelectField<S> = {
  [K in keyof S & string]-?:
    | (S[K] extends YesNo ? { key: K; label: string; yes?: string; no?: string; options?: never } : never)
    | { key: K; label: string; options: readonly { value: NonNullable<S[K]> & string; label: string }[] };
}[keyof S & string];

/**
 * A panel's select fields from one table, in its order: a `YesNoSelect` or a `ChoiceSelect` each, on the list's
 * state key `key` (All is no filter). testIds `<testId>-<key>`.
 */
export function FilterSelects<S extends object>({
  fields,
  state,
  onChange,
  testId,
}: {
  fields: readonly FilterSelectField<S>[];
  state: S;
  onChange: (patch: Partial<S>) => void;
  testId: string;
}) {
  return fields.map((field) => {
    const value = state[field.key as keyof S] as string | undefined;
    const set = (v: string | undefined) => onChange({ [field.key]: v } as Partial<S>);
    return field.options ? (
      <ChoiceSelect<string>
        key={field.key}
        label={field.label}
        value={value}
        options={[...field.options]}
        onChange={set}
        testId={`${testId}-${field.key}`}
      />
    ) : (
      <YesNoSelect
        key={field.key}
        label={field.label}
        value={value as YesNo}
        yes={field.yes}
        no={field.no}
        onChange={set}
        testId={`${testId}-${field.key}`}
      />
    );
  });
}
