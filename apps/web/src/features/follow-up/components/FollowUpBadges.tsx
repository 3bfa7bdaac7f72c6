// The status badge and the Next Due cell of a follow-up case, shared by the worklist, the case dialog and the
// patient dialog's cases.
import { Badge, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { FOLLOW_UP_STATUS_LABELS, type TFollowUpStatus } from '@sc/shared/follow-up';
import { SHORT_DATE_FORMAT } from '../../../components/list/ListDate.tsx';

/** Filled badges in shades that keep white text at AA contrast; closing states in greys, lost in red. */
export const FOLLOW_UP_STATUS_COLORS: Record<TFollowUpStatus, string> = {
  OPEN: 'blue.9',
  CONTACTED: 'cyan.9',
  REFERRED: 'grape.9',
  SEEN: 'teal.9',
  CLOSED: 'dark.6',
  LOST_TO_FOLLOW_UP: 'red.9',
  DECLINED: 'gray.7',
};

export function FollowUpStatusBadge({
  status,
  size = 'md',
}: {
  status: TFollowUpStatus;
  size?: 'sm' | 'md';
}) {
  return (
    <Badge
      variant="filled"
      tt="none"
      size={size}
      color={FOLLOW_UP_STATUS_COLORS[status]}
      data-testid="follow-up-status"
    >
      {FOLLOW_UP_STATUS_LABELS[status]}
    </Badge>
  );
}

/** '1 day overdue', 'N days overdue'. */
export const overdueText = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'} overdue`;

/** The next due date (the organization's calendar day, shown as it is); red with the days overdue once passed. */
export function NextDueCell({
  due,
  overdue,
  daysOverdue,
}: {
  due: string | null;
  overdue: boolean;
  daysOverdue: number;
}) {
  if (!due)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const date = dayjs(due).format(SHORT_DATE_FORMAT);
  return (
    <Stack gap={0} data-testid="follow-up-next-due" data-overdue={overdue || undefined}>
      <Text
        size="sm"
        c={overdue ? 'red.8' : undefined}
        fw={overdue ? 600 : undefined}
        style={{ whiteSpace: 'nowrap' }}
      >
        {date}
      </Text>
      {overdue && (
        <Text size="xs" c="red.8" style={{ whiteSpace: 'nowrap' }}>
          {overdueText(daysOverdue)}
        </Text>
      )}
    </Stack>
  );
}
