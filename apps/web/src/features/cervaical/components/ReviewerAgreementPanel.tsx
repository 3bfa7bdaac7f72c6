// Each reviewer's agreement rate (beyond the spec; issue 10): among the exams both reviewers finished, how often the
// reviewer's status matched the other reviewer's. Shown on the reviewer's page (the cervical list).
import { Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatRate } from '@sc/shared/cervical';
import { useReviewerAgreement } from '../cervical.api.ts';

export function ReviewerAgreementPanel({ organizationId }: { organizationId?: number }) {
  const agreement = useReviewerAgreement(organizationId, true);
  const rows = agreement.data?.results ?? [];
  if (rows.length === 0) return null;
  return (
    <Card withBorder padding="sm" mt="md" data-testid="reviewer-agreement">
      <Title order={2} size="h5" mb="xs">
        Reviewer agreement
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        {rows.map((r) => (
          <Stack key={r.user.id} gap={2} data-testid={`agreement-${r.user.id}`}>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={500} truncate>
                {r.user.first_name} {r.user.last_name}
              </Text>
              <Text size="sm" fw={600}>
                {formatRate(r.rate)}
              </Text>
            </Group>
            <Progress value={(r.rate ?? 0) * 100} color="teal.9" size="sm" aria-label={`Agreement of ${r.user.first_name} ${r.user.last_name}`} />
            <Text size="xs" c="dimmed">
              Agreed on {r.agreed} of {r.compared} exams compared · {r.reviewed} reviewed
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
}
