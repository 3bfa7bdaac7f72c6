// The Trash action of an area's list page (issue 27), for the roles that may delete there: opens the area's trash,
// its deleted records newest first with who deleted them, when, and when they are purged; Restore (confirmed) puts
// one back everywhere. One component for every area.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRestore, IconTrash } from '@tabler/icons-react';
import {
  TRASH_MESSAGES,
  TRASH_TARGET_LABELS,
  canOpenTrash,
  type TTrashArea,
  type TTrashEntry,
} from '@sc/shared/trash';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useSessionUser } from '../../app/SessionUserContext.tsx';
import { openAlert } from '../AlertDialog.tsx';
import { confirm } from '../ConfirmDialog.tsx';
import { formatDateTime } from '../dateTime.ts';
import { usePhoneLayout } from '../list/usePhoneLayout.ts';
import { useRestoreFromTrash, useTrash } from './trash.api.ts';

const PAGE_SIZE = 10;

/** The records that went with a deleted one, as the trash names them (other tables' rows go back unnamed). */
const WITH_IT_LABELS: Record<string, string> = {
  scans: 'scans',
  cervical_exams: 'cervical exams',
  orca_exams: 'ORCA exams',
  follow_up_cases: 'follow-up cases',
  cervical_documents: 'cervical documents',
};

/** '3 scans, 1 cervical exams' — the records that went with it, besides itself. */
function withIt(entry: TTrashEntry): string {
  const parts = Object.entries(entry.counts)
    .filter(([table, n]) => WITH_IT_LABELS[table] && n > 0 && table !== ROOT_TABLE[entry.target_type])
    .map(([table, n]) => `${n} ${WITH_IT_LABELS[table]}`);
  return parts.join(', ');
}

const ROOT_TABLE: Record<TTrashEntry['target_type'], string> = {
  patient: 'patients',
  scan: 'scans',
  cervical_exam: 'cervical_exams',
  orca_exam: 'orca_exams',
  user: 'users',
};

export function TrashButton({ area }: { area: TTrashArea }) {
  const user = useSessionUser();
  const [opened, setOpened] = useState(false);
  if (!canOpenTrash(user.user_type, area)) return null;
  return (
    <>
      <Button variant="default" leftSection={<IconTrash size={16} />} onClick={() => setOpened(true)} data-testid={`trash-open-${area}`}>
        Trash
      </Button>
      <TrashDialog area={area} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

export function TrashDialog({ area, opened, onClose }: { area: TTrashArea; opened: boolean; onClose: () => void }) {
  const phone = usePhoneLayout();
  const [page, setPage] = useState(1);
  const query = useTrash(area, page, PAGE_SIZE, opened);
  const restore = useRestoreFromTrash();
  const entries = query.data?.results ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / PAGE_SIZE));

  const restoreEntry = async (entry: TTrashEntry) => {
    const ok = await confirm({ title: 'Restore', message: TRASH_MESSAGES.restoreConfirm(entry.label), confirmLabel: 'Restore' });
    if (!ok) return;
    try {
      const answer = await restore.mutateAsync(entry.id);
      notifications.show({ color: 'teal', message: answer.detail });
      if (entries.length === 1 && page > 1) setPage(page - 1);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      void openAlert({ variant: 'error', title: 'Restore failed', message: errorMessage(error), autoClose: false });
    }
  };

  const restoreButton = (entry: TTrashEntry) => (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconRestore size={14} />}
      loading={restore.isPending && restore.variables === entry.id}
      onClick={() => void restoreEntry(entry)}
      aria-label={`Restore ${entry.label}`}
      data-testid="trash-restore"
    >
      Restore
    </Button>
  );

  return (
    <Modal opened={opened} onClose={onClose} title={TRASH_MESSAGES.title(area)} size="xl" fullScreen={phone} data-testid="trash-dialog">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {TRASH_MESSAGES.retention}
        </Text>
        {query.isError && !(query.error instanceof ApiError && query.error.status === 401) && (
          <Alert color="red" variant="light">
            {errorMessage(query.error)}
          </Alert>
        )}
        {query.isSuccess && entries.length === 0 && (
          <Text size="sm" ta="center" py="lg" data-testid="trash-empty">
            {TRASH_MESSAGES.empty}
          </Text>
        )}
        {entries.length > 0 && phone && (
          <Stack gap="xs" data-testid="trash-cards">
            {entries.map((entry) => (
              <Card key={entry.id} withBorder padding="sm" data-testid="trash-row">
                <Stack gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {entry.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {TRASH_TARGET_LABELS[entry.target_type]}
                      {withIt(entry) ? ` · with ${withIt(entry)}` : ''}
                    </Text>
                    <Text size="xs">
                      Deleted {formatDateTime(entry.deleted_at)}
                      {entry.deleted_by ? ` by ${entry.deleted_by.name}` : ''}
                    </Text>
                    <Text size="xs">Purged {formatDateTime(entry.purge_after)}</Text>
                  </Stack>
                  <Group justify="flex-end">{restoreButton(entry)}</Group>
                </Stack>
              </Card>
            ))}
          </Stack>
        )}
        {entries.length > 0 && !phone && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs" data-testid="trash-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>With it</Table.Th>
                  <Table.Th>Deleted by</Table.Th>
                  <Table.Th>Deleted on</Table.Th>
                  <Table.Th>Purged on</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="trash-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {entry.label}
                      </Text>
                      <Badge size="xs" variant="light" color="gray">
                        {TRASH_TARGET_LABELS[entry.target_type]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{withIt(entry) || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.deleted_by?.name ?? '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(entry.deleted_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(entry.purge_after)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{restoreButton(entry)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={page} onChange={setPage} size="sm" />
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
