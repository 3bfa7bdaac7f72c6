// A user's training (part 2 §2.3, §6): scan counts (pre-training, training, practice), the training and practice
// report buttons for ORG_ADMIN, DISTRIBUTOR_ADMIN and TECHNICIAN users who have such scans (the PDF opens in a new
// tab), and the tutorial status: each module, completed or not, with completed / total and the progress.
import { useState } from 'react';
import { Alert, Button, Group, List, Loader, Paper, Progress, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCircleDashed, IconFileTypePdf } from '@tabler/icons-react';
import { showsTrainingReport } from '@sc/shared/user-permissions';
import type { TUserDetail } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { fetchTrainingReport, useTutorialStatus, useUserScanCount, type TrainingReportKind } from '../users.api.ts';

const COUNT_LABELS = [
  ['pre_training', 'Pre-training scans'],
  ['training', 'Training scans'],
  ['practice', 'Practice scans'],
] as const;

export function UserTrainingPanel({ user }: { user: TUserDetail }) {
  const counts = useUserScanCount(user.id);
  const tutorial = useTutorialStatus(user.id);

  return (
    <Stack gap="md" data-testid="user-training">
      <Title order={3} size="h5">
        Scans
      </Title>
      {counts.isPending ? (
        <Loader size="xs" />
      ) : counts.data ? (
        <SimpleGrid cols={{ base: 3 }} spacing="sm">
          {COUNT_LABELS.map(([key, label]) => (
            <Paper key={key} withBorder radius="md" p="sm" data-testid={`user-count-${key}`}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700} size="lg">
                {counts.data[key]}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          {errorMessage(counts.error)}
        </Text>
      )}
      {counts.data && (
        <Group gap="sm">
          {showsTrainingReport(user.user_type, counts.data.training) && <ReportButton kind="training" userId={user.id} />}
          {showsTrainingReport(user.user_type, counts.data.practice) && <ReportButton kind="practice" userId={user.id} />}
        </Group>
      )}

      <Title order={3} size="h5">
        Tutorials
      </Title>
      {tutorial.isPending ? (
        <Loader size="xs" />
      ) : tutorial.data ? (
        tutorial.data.total === 0 ? (
          <Text size="sm" c="dimmed">
            No tutorials are published.
          </Text>
        ) : (
          <Stack gap="xs" data-testid="user-tutorials">
            <Group justify="space-between" gap="sm">
              <Text size="sm" data-testid="user-tutorials-summary">
                {tutorial.data.completed} of {tutorial.data.total} completed
              </Text>
              <Text size="sm" fw={600}>
                {tutorial.data.progress_completed}%
              </Text>
            </Group>
            <Progress value={tutorial.data.progress_completed} aria-label="Tutorials completed" />
            <List spacing={4} size="sm" center>
              {tutorial.data.results.map((item) => (
                <List.Item
                  key={item.id}
                  icon={
                    <ThemeIcon size={20} radius="xl" variant="light" color={item.completed ? 'teal' : 'gray'}>
                      {item.completed ? <IconCheck size={12} /> : <IconCircleDashed size={12} />}
                    </ThemeIcon>
                  }
                >
                  {item.name} — {item.completed ? 'Completed' : `${item.progress}%`}
                </List.Item>
              ))}
            </List>
          </Stack>
        )
      ) : (
        <Alert color="gray" variant="light">
          {errorMessage(tutorial.error)}
        </Alert>
      )}
    </Stack>
  );
}

const REPORT_LABELS: Record<TrainingReportKind, string> = { training: 'Training report', practice: 'Practice report' };

/**
 * Opens the report PDF in a new tab: the tab is opened at the click (a tab opened after an await is a blocked pop-up),
 * then pointed at the PDF fetched with the session's token.
 */
function ReportButton({ kind, userId }: { kind: TrainingReportKind; userId: number }) {
  const [loading, setLoading] = useState(false);
  const open = async () => {
    const tab = window.open('', '_blank');
    setLoading(true);
    try {
      const blob = await fetchTrainingReport(kind, userId);
      const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
      if (tab) tab.location.href = url;
      else window.location.assign(url);
      // The tab has loaded it by then; the URL is let go.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      tab?.close();
      if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconFileTypePdf size={16} />} loading={loading} onClick={() => void open()} data-testid={`user-report-${kind}`}>
      {REPORT_LABELS[kind]}
    </Button>
  );
}
