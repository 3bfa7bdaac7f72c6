// The custom range dialog of the period tabs (part 1 §2.4, §9): a two-month calendar, the chosen
// From and To dates, Cancel and Confirm. It opens on the given range, or the last 10 days to today;
// a start without an end confirms as that one day. How far ahead the calendar reaches depends on what the dates are
// (`dates`, periods.ts): up to today for what has happened, any day for what is scheduled (booking slots).
import { useState } from 'react';
import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePicker, type DatesRangeValue, type DateStringValue } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import dayjs from 'dayjs';
import { BREAKPOINTS } from '@sc/shared/constants';
import { defaultCustomRange, latestFilterDate, toApiDate, type DateFilterKind, type DateRange } from './periods.ts';

type DateRangeDialogProps = {
  opened: boolean;
  /** The range to start from; the last 10 days when absent. */
  initialRange?: DateRange;
  onCancel: () => void;
  onConfirm: (range: { from: string; to: string }) => void;
  title?: string;
  /** What the dates are: `recorded` (default) ends the calendar at today, `scheduled` lets it run ahead. */
  dates?: DateFilterKind;
  /** A line under the title: how the days are read (Slot Data: in the viewer's zone). */
  description?: string;
};

export function DateRangeDialog({
  opened,
  initialRange,
  onCancel,
  onConfirm,
  title = 'Custom Range',
  dates = 'recorded',
  description,
}: DateRangeDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} size="auto" data-testid="date-range-dialog">
      {description && (
        <Text size="sm" c="dimmed" mb="sm" data-testid="date-range-description">
          {description}
        </Text>
      )}
      {/* Mounted only while open, so each opening starts from the current range. */}
      {opened && <RangeForm initialRange={initialRange} onCancel={onCancel} onConfirm={onConfirm} dates={dates} />}
    </Modal>
  );
}

function RangeForm({ initialRange, onCancel, onConfirm, dates = 'recorded' }: Omit<DateRangeDialogProps, 'opened' | 'title'>) {
  const [value, setValue] = useState<DatesRangeValue<DateStringValue>>(() => {
    const start = initialRange?.from ? initialRange : defaultCustomRange();
    return [start.from ?? null, start.to ?? start.from ?? null];
  });
  const [from, to] = value;
  const today = toApiDate(new Date());
  // Two months do not fit a phone (the spec's xs): one month there.
  const small = useMediaQuery(`(max-width: ${BREAKPOINTS.xs}px)`, false, { getInitialValueInEffect: false });

  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="sm">
        <DateBox label="From" value={from} testId="date-range-from" />
        <DateBox label="To" value={to ?? from} testId="date-range-to" />
      </SimpleGrid>
      <DatePicker
        type="range"
        numberOfColumns={small ? 1 : 2}
        allowSingleDateInRange
        value={value}
        onChange={setValue}
        maxDate={latestFilterDate(dates)}
        // The end's month on the right, the month before it on the left (one month: the end's).
        defaultDate={dayjs(to ?? from ?? today)
          .subtract(small ? 0 : 1, 'month')
          .startOf('month')
          .format('YYYY-MM-DD')}
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} data-testid="date-range-cancel">
          Cancel
        </Button>
        <Button disabled={!from} onClick={() => from && onConfirm({ from, to: to ?? from })} data-testid="date-range-confirm">
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}

function DateBox({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  return (
    <Paper withBorder p="xs" radius="md">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value ? dayjs(value).format('DD MMM YYYY') : '—'}
      </Text>
    </Paper>
  );
}
