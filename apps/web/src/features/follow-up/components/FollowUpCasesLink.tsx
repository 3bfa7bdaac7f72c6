// Links from a patient, a scan or an exam to their follow-up cases (issue 26): the patient dialog lists the
// patient's cases, the scan, cervical and ORCA details show the case the record opened or joined; each opens the
// case dialog. Nothing for a role that does not follow up patients.
import { useContext, useState } from 'react';
import { Anchor, Group, Text } from '@mantine/core';
import { FOLLOW_UP_STATUS_LABELS, canFollowUp } from '@sc/shared/follow-up';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { useFollowUpCases, type TFollowUpQuery } from '../follow-up.api.ts';
import { FollowUpCaseDialog } from './FollowUpCaseDialog.tsx';

export type FollowUpLinkFilter = Pick<TFollowUpQuery, 'patient' | 'scan' | 'cervical_exam' | 'orca_exam'>;

/** Whether the signed-in user follows up patients (false outside the shell, where no user is known). */
export function useCanFollowUp(): boolean {
  return canFollowUp(useContext(SessionUserContext)?.user_type);
}

/** The cases of a patient or record as buttons 'Case 12 · Open'; `none` when there is none. */
export function FollowUpCasesLink({ filter, none = 'None' }: { filter: FollowUpLinkFilter; none?: string }) {
  const allowed = useCanFollowUp();
  const cases = useFollowUpCases({ ...filter, page: 1, limit: 10, ordering: '-opened' }, allowed);
  const [open, setOpen] = useState<number | undefined>(undefined);
  if (!allowed) return null;
  const rows = cases.data?.results ?? [];
  return (
    <>
      <Group gap="md" data-testid="follow-up-cases-link">
        {cases.isPending ? (
          <Text size="sm" c="dimmed">
            …
          </Text>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {none}
          </Text>
        ) : (
          rows.map((c) => (
            <Anchor
              key={c.id}
              component="button"
              type="button"
              size="sm"
              onClick={() => setOpen(c.id)}
              data-testid={`follow-up-case-link-${c.id}`}
            >
              Case {c.id} · {FOLLOW_UP_STATUS_LABELS[c.status]}
            </Anchor>
          ))
        )}
      </Group>
      <FollowUpCaseDialog id={open} onClose={() => setOpen(undefined)} />
    </>
  );
}
