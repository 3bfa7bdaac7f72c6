// An ADMIN's final read of an exam whose two reviewers disagree (beyond the spec; issue 10): both reviewers'
// statuses, then Valid or Invalid (required) and an optional note. Sent again, it replaces the last final read.
import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import {
  CERVICAL_MESSAGES,
  REVIEW_STATUS_LABELS,
  type TCervicalRow,
  type TReviewStatus,
} from '@sc/shared/cervical';
import { errorMessage } from '../../../api/client.ts';
import { openAlert } from '../../../components/AlertDialog.tsx';
import { useAdjudicate } from '../cervical.api.ts';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';

export function CervicalAdjudicationDialog({ exam, onClose }: { exam: TCervicalRow | null; onClose: () => void }) {
  return (
    <Modal opened={exam !== null} onClose={onClose} title="Final read" size="lg" data-testid="cervical-adjudication-dialog">
      {exam && <AdjudicationForm exam={exam} onClose={onClose} />}
    </Modal>
  );
}

function AdjudicationForm({ exam, onClose }: { exam: TCervicalRow; onClose: () => void }) {
  const [status, setStatus] = useState<TReviewStatus | null>(exam.adjudication?.final_status ?? null);
  const [note, setNote] = useState(exam.adjudication?.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const adjudicate = useAdjudicate();
  const submit = async () => {
    if (!status) {
      setError(CERVICAL_MESSAGES.reviewStatusRequired);
      return;
    }
    try {
      await adjudicate.mutateAsync({ id: exam.id, input: { final_status: status, note: note.trim() || null } });
      onClose();
      void openAlert({ variant: 'success', title: CERVICAL_MESSAGES.adjudicated });
    } catch (e) {
      void openAlert({ variant: 'error', title: 'Final read not saved', message: errorMessage(e), autoClose: false });
    }
  };
  const name = exam.patient ? `${exam.patient.first_name} ${exam.patient.last_name}`.trim() : `Exam ${exam.id}`;
  return (
    <Stack gap="md">
      <Text size="sm">
        The two reviewers of {name}'s exam ({exam.id}) disagree. Open Review to see both readings, then give the final
        read.
      </Text>
      <Group gap="lg">
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Reviewer 1
          </Text>
          <ReviewerStatusBadge status={exam.reviewer_one_status} who={exam.reviewer_one} />
        </Group>
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Reviewer 2
          </Text>
          <ReviewerStatusBadge status={exam.reviewer_two_status} who={exam.reviewer_two} />
        </Group>
      </Group>
      <Radio.Group
        label="Final status"
        withAsterisk
        value={status ?? ''}
        onChange={(v) => {
          setStatus(v as TReviewStatus);
          setError(null);
        }}
        error={error}
      >
        <Group gap="md" mt={4}>
          {(['VALID', 'IN_VALID'] as const).map((s) => (
            <Radio key={s} value={s} label={REVIEW_STATUS_LABELS[s]} data-testid={`adjudication-${s}`} />
          ))}
        </Group>
      </Radio.Group>
      <Textarea label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} autosize minRows={2} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={adjudicate.isPending} data-testid="adjudication-save">
          Save final read
        </Button>
      </Group>
    </Stack>
  );
}
