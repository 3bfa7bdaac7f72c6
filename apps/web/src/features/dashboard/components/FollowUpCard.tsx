// The dashboard's follow-up card (issue 26, FOLLOW_UP_ROLES): for the dashboard's period, the screen-positives, the
// share completed with a diagnosis against the 90 % target, the share lost to follow-up, the cases overdue now
// (a link to the worklist's overdue cases) and the median days from the positive screen to the diagnosis.
import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { Link } from 'react-router';
import { FOLLOW_UP_COMPLETION_TARGET_PCT, type TFollowUpFigures } from '@sc/shared/follow-up';
import { DashboardBox } from './DashboardBox.tsx';

type FollowUpCardProps = { figures: TFollowUpFigures | undefined; caption: string };

export const FOLLOW_UP_OVERDUE_PATH = '/follow-up?overdue=true';
const count = (n: number) => n.toLocaleString('en-US');
const pct = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);

export function FollowUpCard({ figures, caption }: FollowUpCardProps) {
  const onTarget = figures?.completion_pct != null && figures.completion_pct >= FOLLOW_UP_COMPLETION_TARGET_PCT;
  const tiles = [
    { key: 'positives', label: 'Screen-positives', value: figures && count(figures.screen_positives) },
    {
      key: 'completed',
      label: 'Completed diagnosis',
      value: figures && pct(figures.completion_pct),
      note: figures && (
        <Group gap={4} wrap="nowrap">
          <Text fz="xs" c="dimmed">
            {count(figures.completed)} · target {FOLLOW_UP_COMPLETION_TARGET_PCT}%
          </Text>
          {/* Filled, in shades that keep white text at AA contrast at this size (a light orange badge measured 3.6:1). */}
          {figures.completion_pct !== null && (
            <Badge size="xs" color={onTarget ? 'teal.9' : 'red.9'} variant="filled" data-testid="follow-up-target">
              {onTarget ? 'On target' : 'Below target'}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'lost',
      label: 'Lost to follow-up',
      value: figures && pct(figures.lost_pct),
      note: figures && (
        <Text fz="xs" c="dimmed">
          {count(figures.lost)} cases
        </Text>
      ),
    },
    { key: 'overdue', label: 'Overdue now', value: figures && count(figures.overdue), to: FOLLOW_UP_OVERDUE_PATH },
    {
      key: 'median',
      label: 'Median days to diagnosis',
      value: figures && (figures.median_days_to_diagnosis === null ? '—' : String(figures.median_days_to_diagnosis)),
    },
  ];
  return (
    <DashboardBox title="Follow-up" testId="dashboard-follow-up">
      <Text fz="xs" c="dimmed" px="md" mt={-6}>
        Cases opened by a positive screen · {caption}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing={{ base: 'xs', sm: 'md' }} p="md">
        {tiles.map((tile) => (
          <Paper key={tile.key} withBorder radius="md" p={{ base: 'xs', sm: 'sm' }} data-testid={`follow-up-${tile.key}`}>
            <Text fz={{ base: 'xs', sm: 'sm' }} c="dimmed" fw={500}>
              {tile.label}
            </Text>
            {tile.value === undefined ? (
              <Skeleton height={30} mt={6} width="50%" />
            ) : tile.to ? (
              <Anchor
                component={Link}
                to={tile.to}
                fz={{ base: 20, sm: 26 }}
                fw={700}
                lh={1.3}
                c={figures && figures.overdue > 0 ? 'red' : 'inherit'}
                display="block"
                aria-label={`${tile.label}: ${tile.value}. Open the overdue cases`}
              >
                {tile.value}
              </Anchor>
            ) : (
              <Text fz={{ base: 20, sm: 26 }} fw={700} lh={1.3}>
                {tile.value}
              </Text>
            )}
            {tile.note}
          </Paper>
        ))}
      </SimpleGrid>
    </DashboardBox>
  );
}
