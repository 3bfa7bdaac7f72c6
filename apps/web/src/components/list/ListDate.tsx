// A date in a list cell: 'DD MMM YYYY hh:mm A' (part 1 §9) on one line; on a phone only the day
// ('05 Jan 2026'), with the full date and time as the cell's title, so a narrow column never wraps
// a date onto four lines.
import { Text } from '@mantine/core';
import dayjs from 'dayjs';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import { usePhoneLayout } from './usePhoneLayout.ts';

export const SHORT_DATE_FORMAT = 'DD MMM YYYY';

export function ListDate({ value }: { value: string | null | undefined }) {
  const phone = usePhoneLayout();
  if (!value) return <Text c="dimmed">—</Text>;
  const date = dayjs(value);
  if (!date.isValid()) return <Text c="dimmed">—</Text>;
  const full = date.format(DATE_DISPLAY_FORMAT);
  return (
    <Text component="time" dateTime={date.toISOString()} title={phone ? full : undefined} size="sm" style={{ whiteSpace: 'nowrap' }}>
      {phone ? date.format(SHORT_DATE_FORMAT) : full}
    </Text>
  );
}
