// A date in a list cell: 'DD MMM YYYY hh:mm A' (part 1 §9) on one line; on a phone only the day
// ('05 Jan 2026'), with the full date and time as the cell's title, so a narrow column never wraps
// a date onto four lines.
import { Text } from '@mantine/core';
import dayjs from 'dayjs';
import { formatDateTime } from '../dateTime.ts';
import { usePhoneLayout } from './usePhoneLayout.ts';

export const SHORT_DATE_FORMAT = 'DD MMM YYYY';

/** `zone`: the zone the time belongs to, named after it when it is not the viewer's (formatDateTime). */
export function ListDate({ value, zone }: { value: string | null | undefined; zone?: string }) {
  const phone = usePhoneLayout();
  if (!value) return <Text c="dimmed">—</Text>;
  const date = dayjs(value);
  if (!date.isValid()) return <Text c="dimmed">—</Text>;
  const full = formatDateTime(value, zone);
  return (
    <Text component="time" dateTime={date.toISOString()} title={phone ? full : undefined} size="sm" style={{ whiteSpace: 'nowrap' }}>
      {phone ? date.format(SHORT_DATE_FORMAT) : full}
    </Text>
  );
}
