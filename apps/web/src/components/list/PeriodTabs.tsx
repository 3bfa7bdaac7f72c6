// Period tabs of a list: the tabs of its kind of list (PERIOD_KINDS in periods.ts: All Time / Last 30 Days /
// Custom Range for most, plus Yesterday, This Month and Last Month for devices). Custom Range opens the date-range
// dialog; the tab then shows the chosen dates. Cancelling leaves the previous period in place.
import { useState } from 'react';
import { Tabs } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { DateRangeDialog } from './DateRangeDialog.tsx';
import {
  PERIOD_KINDS,
  PERIOD_LABELS,
  formatRange,
  type DateFilterKind,
  type DateRange,
  type PeriodKind,
  type PeriodValue,
} from './periods.ts';

type PeriodTabsProps = {
  value: PeriodValue;
  /** The applied custom range (meaningful when `value` is custom_range). */
  range?: DateRange;
  /** A preset clears the custom range (`from`/`to` undefined). */
  onChange: (period: PeriodValue, range: DateRange) => void;
  /** The kind of list, which names its tabs (PERIOD_KINDS). Default: standard (All Time, Last 30 Days, Custom Range). */
  kind?: PeriodKind;
  /** What the list's dates are, which bounds the custom range's calendar (default: recorded, up to today). */
  dates?: DateFilterKind;
};

export function PeriodTabs({ value, range, onChange, kind = 'standard', dates = 'recorded' }: PeriodTabsProps) {
  const { options } = PERIOD_KINDS[kind];
  const [dialogOpened, setDialogOpened] = useState(false);
  const hasRange = value === 'custom_range' && Boolean(range?.from);

  return (
    <>
      <Tabs
        value={value}
        variant="pills"
        radius="md"
        onChange={(next) => {
          if (!next || next === 'custom_range') return;
          onChange(next as PeriodValue, { from: undefined, to: undefined });
        }}
        data-testid="period-tabs"
      >
        <Tabs.List>
          {options.map((option) =>
            option === 'custom_range' ? (
              <Tabs.Tab
                key={option}
                value={option}
                leftSection={<IconCalendarEvent size={16} stroke={1.6} />}
                // Clicking it again (already selected) reopens the dialog to change the range.
                onClick={() => setDialogOpened(true)}
                data-testid="period-tab-custom_range"
              >
                {hasRange && range ? formatRange(range) : PERIOD_LABELS.custom_range}
              </Tabs.Tab>
            ) : (
              <Tabs.Tab key={option} value={option} data-testid={`period-tab-${option}`}>
                {PERIOD_LABELS[option]}
              </Tabs.Tab>
            ),
          )}
        </Tabs.List>
      </Tabs>
      <DateRangeDialog
        opened={dialogOpened}
        initialRange={hasRange ? range : undefined}
        dates={dates}
        onCancel={() => setDialogOpened(false)}
        onConfirm={(chosen) => {
          setDialogOpened(false);
          onChange('custom_range', chosen);
        }}
      />
    </>
  );
}
