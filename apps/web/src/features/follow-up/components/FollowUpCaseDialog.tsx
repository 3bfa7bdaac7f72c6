// The follow-up case dialog (issue 26): the patient, organization, modalities, status, next due (overdue in red)
// and the assigned user with a picker; the positives that opened or joined the case; the timeline oldest first
// (kind, who, when in the viewer's zone, its fields, corrections both ways); and the actions. Full screen on a phone.
import {
  Alert,
  Divider,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MODALITY_LABELS,
  FOLLOW_UP_OUTCOME_LABELS,
  FOLLOW_UP_SITE_LABELS,
  type TFollowUpCase,
} from '@sc/shared/follow-up';
import { errorMessage } from '../../../api/client.ts';
import { QueryDetail } from '../../../components/QueryDetail.tsx';
import { formatDateTime } from '../../../components/dateTime.ts';
import { fullName, OrganizationCell } from '../../../components/list/ListParts.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useAssignFollowUp, useFollowUpAssignees, useFollowUpCase } from '../follow-up.api.ts';
import { FollowUpActionForm } from './FollowUpActionForm.tsx';
import { FollowUpStatusBadge, NextDueCell } from './FollowUpBadges.tsx';
import { FollowUpTimeline } from './FollowUpTimeline.tsx';

const SOURCE_LABELS = { SCAN: 'Breast scan', CERVICAL: 'Cervical exam', ORCA: 'ORCA exam' } as const;

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

export function FollowUpCaseDialog({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const phone = usePhoneLayout();
  return (
    <Modal
      opened={id !== undefined}
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      title={id !== undefined ? `Follow-up case ${id}` : 'Follow-up case'}
      data-testid="follow-up-case-dialog"
    >
      {id !== undefined && <CaseDetail id={id} />}
    </Modal>
  );
}

function CaseDetail({ id }: { id: number }) {
  return <QueryDetail query={useFollowUpCase(id)}>{(kase) => <CaseFacts kase={kase} />}</QueryDetail>;
}

function AssigneePicker({ kase }: { kase: TFollowUpCase }) {
  const assignees = useFollowUpAssignees(kase.organization?.id);
  const assign = useAssignFollowUp();
  const data = [
    { value: 'none', label: 'Unassigned' },
    ...(assignees.data ?? []).map((a) => ({ value: String(a.id), label: a.name })),
  ];
  if (kase.assigned_user && !data.some((o) => o.value === String(kase.assigned_user?.id))) {
    data.push({ value: String(kase.assigned_user.id), label: kase.assigned_user.name });
  }
  return (
    <Select
      aria-label="Assigned user"
      data={data}
      value={kase.assigned_user ? String(kase.assigned_user.id) : 'none'}
      allowDeselect={false}
      disabled={assign.isPending}
      size="xs"
      data-testid="follow-up-assignee"
      onChange={(value) => {
        const assigned_user = !value || value === 'none' ? null : Number(value);
        assign.mutate(
          { id: kase.id, assigned_user },
          {
            onSuccess: () => notifications.show({ color: 'teal', message: FOLLOW_UP_MESSAGES.assigned }),
            onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
          },
        );
      }}
    />
  );
}

function CaseFacts({ kase }: { kase: TFollowUpCase }) {
  return (
    <Stack gap="md" data-testid="follow-up-case">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Fact label="Patient" testId="follow-up-case-patient">
          {fullName(kase.patient)}
          {kase.patient.mobile && (
            <Text size="xs" c="dimmed">
              {kase.patient.mobile}
            </Text>
          )}
        </Fact>
        <Fact label="Organization">
          <OrganizationCell organization={kase.organization} />
        </Fact>
        <Fact label="Modality">{kase.modalities.map((m) => FOLLOW_UP_MODALITY_LABELS[m]).join(', ')}</Fact>
        <Fact label="Status">
          <FollowUpStatusBadge status={kase.status} />
        </Fact>
        <Fact label="Next due">
          <NextDueCell due={kase.next_due} overdue={kase.overdue} daysOverdue={kase.days_overdue} />
        </Fact>
        <Fact label="Assigned to">
          <AssigneePicker kase={kase} />
        </Fact>
        <Fact label="Opened">{formatDateTime(kase.opened)}</Fact>
        {kase.outcome && (
          <Fact label="Outcome" testId="follow-up-case-outcome">
            {FOLLOW_UP_OUTCOME_LABELS[kase.outcome]}
            {kase.site && ` (${FOLLOW_UP_SITE_LABELS[kase.site]})`}
            {kase.diagnosis_date && `, ${kase.diagnosis_date}`}
            {kase.diagnosis_facility && `, ${kase.diagnosis_facility}`}
          </Fact>
        )}
      </SimpleGrid>
      <Stack gap={4}>
        <Title order={5}>Positives</Title>
        {kase.sources.map((s) => (
          <Text size="sm" key={`${s.kind}-${s.id}`} data-testid="follow-up-source">
            {SOURCE_LABELS[s.kind]} {s.id} · {formatDateTime(s.date_time)}
          </Text>
        ))}
      </Stack>
      <Divider />
      <Stack gap="xs">
        <Title order={5}>Timeline</Title>
        <FollowUpTimeline entries={kase.timeline} />
      </Stack>
      <Divider />
      <Stack gap="xs">
        <Title order={5}>Record</Title>
        {kase.status === 'CLOSED' || kase.status === 'DECLINED' ? (
          <Alert variant="light" color="gray">
            {FOLLOW_UP_MESSAGES.closedCase}
          </Alert>
        ) : null}
        <FollowUpActionForm kase={kase} />
      </Stack>
      <Group />
    </Stack>
  );
}
