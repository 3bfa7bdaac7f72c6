// A reviewer's status as a badge (Not Reviewed grey, Valid green, Invalid red); 'Hidden' while the caller is blinded
// (a reviewer who has not finished their own review of the exam).
import { Badge, Group, Text } from '@mantine/core';
import { REVIEWER_STATUS_LABELS, type TReviewerStatus } from '@sc/shared/cervical';

// Dark shades: white text on them passes the contrast check.
const COLORS: Record<TReviewerStatus, string> = { NOT_REVIEWED: 'gray.7', VALID: 'teal.9', IN_VALID: 'red.9' };

export function ReviewerStatusBadge({
  status,
  who,
}: {
  status: TReviewerStatus | null;
  who?: { first_name: string; last_name: string } | null;
}) {
  const badge =
    status === null ? (
      <Badge color="gray.7" variant="outline" tt="none" title="Hidden until you finish your own review">
        Hidden
      </Badge>
    ) : (
      <Badge color={COLORS[status]} variant={status === 'NOT_REVIEWED' ? 'outline' : 'filled'} tt="none">
        {REVIEWER_STATUS_LABELS[status]}
      </Badge>
    );
  if (!who) return badge;
  return (
    <Group gap={6} wrap="nowrap" component="span">
      {badge}
      <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {who.first_name} {who.last_name}
      </Text>
    </Group>
  );
}
