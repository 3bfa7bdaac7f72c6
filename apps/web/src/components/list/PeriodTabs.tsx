// Period tabs of a list: All Time / Last 30 Days / Custom Range by default, plus Yesterday, This
// Month and Last Month where an area offers them (devices). Custom Range opens the date-range
// dialog; the tab then shows the chosen dates. Cancelling leaves the previous period in place.
import { useState } from 'react';
import { Tabs } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { DateRangeDialog } from './DateRangeDialog.tsx';
import { DEFAULT_PERIODS, PERIOD_LABELS, formatRange, type DateRange, type PeriodValue } from './periods.ts';

type PeriodTabsProps = {
  value: PeriodValue;
  /** The applied custom range (meaningful when `value` is custom_range). */
  range?: DateRange;
  /** A preset clears the custom range (`from`/`to` undefined). */
  onChange: (period: PeriodValue, range: DateRange) => void;
  /** Which tabs, in order. Default: today (All Time), 30, custom_range. */
  options?: readonly PeriodValue[];
};

export function PeriodTabs({ value, range, onChange, options = DEFAULT_PERIODS }: PeriodTabsProps) {
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
        onCancel={() => setDialogOpened(false)}
        onConfirm={(chosen) => {
          setDialogOpened(false);
          onChange('custom_range', chosen);
        }}
      />
    </>
  );
}
