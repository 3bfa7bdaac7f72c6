// The report page (part 3 "Report page"): two rows, Technician report and Organization report, each with Generate
// Report opening the period modal. The title is the menu entry's label (docs/decisions.md, "Labels").
import { useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { REPORT_KINDS, REPORT_TITLES, type TReportKind } from '@sc/shared/reports';
import { menuLabel } from '../../../app/routeAccess.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ReportPeriodModal } from '../components/ReportPeriodModal.tsx';

const DESCRIPTIONS: Record<TReportKind, string> = {
  technician: 'Scans, positive scans and positivity per technician, compared with the previous period.',
  organization: 'Scans, positive scans and positivity per organization, compared with the previous period.',
};

export function ReportPage() {
  const user = useSessionUser();
  const [open, setOpen] = useState<TReportKind | null>(null);
  return (
    <>
      <PageHeader title={menuLabel('report')} />
      <Paper withBorder radius="md">
        <Stack gap={0}>
          {REPORT_KINDS.map((kind, i) => (
            <Group
              key={kind}
              justify="space-between"
              wrap="wrap"
              gap="sm"
              p="md"
              style={i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
              data-testid={`report-row-${kind}`}
            >
              <Stack gap={2} style={{ flex: '1 1 16rem' }}>
                <Text fw={600}>{REPORT_TITLES[kind]}</Text>
                <Text size="sm" c="dimmed">
                  {DESCRIPTIONS[kind]}
                </Text>
              </Stack>
              <Button
                variant="light"
                leftSection={<IconFileSpreadsheet size={16} />}
                onClick={() => setOpen(kind)}
                data-testid={`report-generate-${kind}`}
              >
                Generate Report
              </Button>
            </Group>
          ))}
        </Stack>
      </Paper>
      <ReportPeriodModal kind={open} role={user.user_type} onClose={() => setOpen(null)} />
    </>
  );
}
