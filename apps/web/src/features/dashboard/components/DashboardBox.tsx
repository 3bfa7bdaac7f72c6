// A titled card of the dashboard (leaderboard, By Device, By Technician, the chart): title and actions on top.
import type { ReactNode } from 'react';
import { Group, Paper, Title } from '@mantine/core';

type DashboardBoxProps = { title: string; actions?: ReactNode; children: ReactNode; testId?: string };

export function DashboardBox({ title, actions, children, testId }: DashboardBoxProps) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} data-testid={testId}>
      <Group justify="space-between" px="md" pt="md" pb="xs" gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {/* The table fills its parent's height: inside a stretched grid cell that would push the footer out. */}
      <div>{children}</div>
    </Paper>
  );
}
