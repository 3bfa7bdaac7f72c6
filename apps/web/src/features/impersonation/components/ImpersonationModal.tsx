// The Impersonation modal of part 1 §2.7: search, a paginated table of the users an ADMIN may impersonate
// (every listed type but ADMIN, valid accounts only) and an Impersonate button per row. On a phone the spec's
// columns fold into one 'User' cell beside the button, so Impersonate stays on screen at 390 px.
import { useEffect, useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import {
  BREAKPOINTS,
  DATE_DISPLAY_FORMAT,
  DEFAULT_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
} from '@sc/shared/constants';
import { searchProblem } from '@sc/shared/list';
import { ROLE_LABELS } from '@sc/shared/roles';
import { IMPERSONATABLE_TYPES, type TOrganizationUser } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { useImpersonationUsers, useStartImpersonation } from '../impersonation.api.ts';

type ImpersonationModalProps = { opened: boolean; onClose: () => void };

const PHONE_QUERY = `(max-width: ${BREAKPOINTS.xs}px)`;

export function ImpersonationModal({ opened, onClose }: ImpersonationModalProps) {
  // Read at once: a phone never lays out the wide table first.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Modal
      fullScreen={phone}
      opened={opened}
      onClose={onClose}
      title="Impersonation"
      size="80rem"
      data-testid="impersonation-modal"
    >
      {/* Mounted only while open, so the list is fetched only then. */}
      <ImpersonationUserTable phone={phone} />
    </Modal>
  );
}

const fullName = (u: TOrganizationUser) => `${u.first_name} ${u.last_name}`.trim() || u.username;

function ImpersonationUserTable({ phone }: { phone: boolean }) {
  const [search, setSearch] = useState('');
  // A search the API would refuse (too long) is not sent: the field says why and the table keeps the last search.
  const problem = searchProblem(search);
  const [sendable, setSendable] = useState('');
  if (!problem && search.trim() !== sendable) setSendable(search.trim());
  const [debouncedSearch] = useDebouncedValue(sendable, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE_SIZE);
  const query = useImpersonationUsers({
    page,
    limit,
    search: debouncedSearch || undefined,
    user_type: IMPERSONATABLE_TYPES,
    is_valid: true,
    using_read_db: true,
  });
  const start = useStartImpersonation();

  // A new search starts again from the first page.
  useEffect(() => setPage(1), [debouncedSearch]);

  const impersonate = (user: TOrganizationUser) => {
    start.mutate(user.id, {
      onSuccess: () =>
        notifications.show({
          color: 'blue',
          title: 'Impersonation',
          message: `Opening the console as ${fullName(user)}…`,
        }),
      onError: (e) => {
        // 401 and 403 are already reported by the API client.
        if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status >= 500)) return;
        notifications.show({ color: 'red', title: 'Impersonation failed', message: errorMessage(e) });
      },
    });
  };
  const busy = start.isPending || start.isSuccess;
  const empty = !query.isFetching && (query.data?.results.length ?? 0) === 0;

  const actionColumn: DataTableColumn<TOrganizationUser> = {
    accessor: 'actions',
    title: <VisuallyHidden>Actions</VisuallyHidden>,
    textAlign: 'right',
    width: phone ? 120 : undefined,
    render: (u) => (
      <Button
        size="xs"
        variant="light"
        onClick={() => impersonate(u)}
        aria-label={`Impersonate ${fullName(u)}`}
        loading={start.isPending && start.variables === u.id}
        disabled={busy && start.variables !== u.id}
        data-testid={`impersonate-${u.id}`}
      >
        Impersonate
      </Button>
    ),
  };

  return (
    <Stack gap="md">
      <TextInput
        placeholder="Search by name, mobile no, email"
        aria-label="Search users"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        error={problem}
        data-testid="impersonation-search"
        data-autofocus
      />
      {query.isError && (
        <Text c="red" size="sm" data-testid="impersonation-error">
          {errorMessage(query.error)}
        </Text>
      )}
      <DataTable<TOrganizationUser>
        data-testid="impersonation-table"
        withTableBorder
        borderRadius="md"
        highlightOnHover
        minHeight={220}
        records={query.data?.results ?? []}
        fetching={query.isFetching}
        noRecordsText="No users"
        // mantine-datatable only fades its empty state out: next to real rows a screen reader would still read it.
        {...(empty ? {} : { emptyState: <span hidden /> })}
        columns={phone ? [userColumn, actionColumn] : [...wideColumns, actionColumn]}
      />
      {/* The same footer as every list: page sizes, the total and a 5-link pager (part 1 §2.4, §9). */}
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
    </Stack>
  );
}

const contact = (u: TOrganizationUser) => (
  <Stack gap={0} style={{ minWidth: 0 }}>
    <Text size="sm">{u.mobile ?? '—'}</Text>
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {u.email ?? '—'}
    </Text>
  </Stack>
);

const organizationAndType = (u: TOrganizationUser) => (
  <Stack gap={2} align="flex-start">
    <Text size="sm">{u.organization_data?.name ?? '—'}</Text>
    <Badge variant="light" size="sm">
      {ROLE_LABELS[u.user_type]}
    </Badge>
  </Stack>
);

const created = (u: TOrganizationUser) => dayjs(u.created).format(DATE_DISPLAY_FORMAT);

/** The columns of part 1 §2.7, from sm up. */
const wideColumns: DataTableColumn<TOrganizationUser>[] = [
  { accessor: 'id', title: 'ID', width: 80 },
  {
    accessor: 'name',
    title: 'Name',
    render: (u) => (
      <Text size="sm" fw={500}>
        {fullName(u)}
      </Text>
    ),
  },
  { accessor: 'contact', title: 'Mobile/E-mail', render: contact },
  { accessor: 'organization', title: 'Organization/User Type', render: organizationAndType },
  {
    accessor: 'created',
    title: 'Created',
    render: (u) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {created(u)}
      </Text>
    ),
  },
];

/** On a phone: the same facts in one cell. */
const userColumn: DataTableColumn<TOrganizationUser> = {
  accessor: 'name',
  title: 'User',
  render: (u) => (
    <Stack gap={4} style={{ minWidth: 0 }}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {fullName(u)}
        </Text>
        <Text size="xs" c="dimmed">
          #{u.id}
        </Text>
      </Group>
      {contact(u)}
      {organizationAndType(u)}
      <Text size="xs" c="dimmed">
        Created {created(u)}
      </Text>
    </Stack>
  ),
};
