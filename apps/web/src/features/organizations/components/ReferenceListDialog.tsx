// The reference list of one organization (part 1 §2.6, §4): Reference name, Status and a toggle
// that switches the reference on or off, with Add, Edit and Delete. ADMIN, SUB_ADMIN and ORG_ADMIN
// open it (`reference.manage`).
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { BREAKPOINTS, DEFAULT_PAGE_SIZE } from '@sc/shared/constants';
import { REFERENCE_DEFAULT_ORDERING, REFERENCE_MESSAGES, type TReference } from '@sc/shared/references';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { useDeleteReference, useReferences, useUpdateReference } from '../organizations.api.ts';
import { ReferenceFormDialog } from './ReferenceFormDialog.tsx';

type ReferenceListDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** Whose references; null while closed. */
  organization: { id: number; name: string } | null;
};

export function ReferenceListDialog({ opened, onClose, organization }: ReferenceListDialogProps) {
  // On a phone the three columns need the whole width.
  const small = useMediaQuery(`(max-width: ${BREAKPOINTS.xs}px)`);
  return (
    <Modal
      fullScreen={small}
      opened={opened && organization !== null}
      onClose={onClose}
      title={
        <Stack gap={0}>
          <Text fw={650} size="lg">
            Reference
          </Text>
          {organization && (
            <Text size="sm" c="dimmed">
              {organization.name}
            </Text>
          )}
        </Stack>
      }
      size="lg"
      data-testid="reference-list-dialog"
    >
      {opened && organization && <ReferenceList key={organization.id} organizationId={organization.id} />}
    </Modal>
  );
}

type FormState = { reference: TReference | null } | null;

function ReferenceList({ organizationId }: { organizationId: number }) {
  const small = useMediaQuery(`(max-width: ${BREAKPOINTS.xs}px)`);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(DEFAULT_PAGE_SIZE);
  const [form, setForm] = useState<FormState>(null);
  const query = useReferences({ organization: organizationId, page, limit, ordering: REFERENCE_DEFAULT_ORDERING });
  const update = useUpdateReference();
  const remove = useDeleteReference();
  const [busyId, setBusyId] = useState<number | null>(null);

  const showError = (error: unknown) => {
    // 403 and 5xx are announced by the API client already.
    if (error instanceof ApiError && (error.status === 403 || error.status >= 500)) return;
    notifications.show({ color: 'red', message: errorMessage(error) });
  };

  const toggle = async (reference: TReference, isActive: boolean) => {
    setBusyId(reference.id);
    try {
      const saved = await update.mutateAsync({ id: reference.id, patch: { is_active: isActive } });
      notifications.show({
        color: 'teal',
        message: saved.detail || (isActive ? REFERENCE_MESSAGES.activated : REFERENCE_MESSAGES.inactivated),
      });
    } catch (error) {
      showError(error);
    } finally {
      setBusyId(null);
    }
  };

  const deleteReference = async (reference: TReference) => {
    const confirmed = await confirm({
      title: 'Delete reference',
      message: `Are you sure you want to delete the reference '${reference.name}'?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    setBusyId(reference.id);
    try {
      const answer = await remove.mutateAsync(reference.id);
      notifications.show({ color: 'teal', message: answer.detail || REFERENCE_MESSAGES.deleted });
      // The last row of a page went: step back a page.
      if (page > 1 && query.data?.results.length === 1) setPage(page - 1);
    } catch (error) {
      showError(error);
    } finally {
      setBusyId(null);
    }
  };

  const columns: ListColumn<TReference>[] = [
    { accessor: 'name', title: 'Reference name' },
    {
      accessor: 'is_active',
      title: 'Status',
      width: 110,
      // On a phone the toggle alone tells the status: the badge column would push the actions out of view.
      hidden: small,
      render: (r) => (
        <Badge
          // Filled dark teal: the light teal badge was under WCAG AA contrast (axe check).
          variant={r.is_active ? 'filled' : 'light'}
          color={r.is_active ? 'teal.9' : 'gray'}
          data-testid={`reference-status-${r.id}`}
        >
          {r.is_active ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      width: 140,
      render: (r) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Tooltip label={r.is_active ? 'Inactivate' : 'Activate'} withinPortal>
            <Switch
              checked={r.is_active}
              disabled={busyId === r.id}
              onChange={(event) => void toggle(r, event.currentTarget.checked)}
              aria-label={`Active: ${r.name}`}
              data-testid={`reference-toggle-${r.id}`}
            />
          </Tooltip>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Edit ${r.name}`}
            onClick={() => setForm({ reference: r })}
            data-testid={`reference-edit-${r.id}`}
          >
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${r.name}`}
            disabled={busyId === r.id}
            onClick={() => void deleteReference(r)}
            data-testid={`reference-delete-${r.id}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ reference: null })} data-testid="reference-add">
          Add
        </Button>
      </Group>
      <ListTable
        records={query.data?.results}
        columns={columns}
        fetching={query.isFetching}
        emptyText={REFERENCE_MESSAGES.empty}
        testId="reference-table"
      />
      <ListFooter
        page={page}
        limit={limit}
        total={query.data?.count ?? 0}
        onPageChange={setPage}
        onLimitChange={(n) => {
          setLimit(n);
          setPage(1);
        }}
      />
      <ReferenceFormDialog
        opened={form !== null}
        organizationId={organizationId}
        reference={form?.reference}
        onClose={() => setForm(null)}
      />
    </Stack>
  );
}
