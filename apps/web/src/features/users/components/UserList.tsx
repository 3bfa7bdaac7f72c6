// The user list (part 2 §2.2, §6): All Users (`?all`), Unassigned Users (`?unassign`) and an organization's Users
// tab are one list. Search by name, mobile or e-mail; period tabs outside an organization; Create; the §2.2 columns
// (Organization in the all-users view only, linking to the organization); row actions Details / Assign or Unassign
// / Transfer by role. Every change reloads the list (the mutations invalidate the user keys).
import { useState } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange, IconEye, IconLinkOff, IconPlus, IconUserPlus } from '@tabler/icons-react';
import { ROLE_LABELS, type TUserType } from '@sc/shared/roles';
import { USER_MESSAGES } from '@sc/shared/user-input';
import { canUser, userRowActions, userTypeTakesOrganization, type TUserRowAction } from '@sc/shared/user-permissions';
import type { TOrganizationUser, TOrganizationUserListParams } from '@sc/shared/users';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { OrganizationCell } from '../../../components/list/ListParts.tsx';
import { ListTable, emptyText, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { ZBaseListParams, useListParams, type TBaseListParams } from '../../../components/list/useListParams.ts';
import { usePatchUser, useUsers } from '../users.api.ts';
import { actorOf, fullName, trainingStatusLabel } from '../userAccess.ts';
import { UserFormDialog, type UserFormView } from './UserFormDialog.tsx';
import { UserTransferDialog } from './UserTransferDialog.tsx';
import { TrashButton } from '../../../components/trash/TrashButton.tsx';

/** all: every user in scope (Organization column); unassign: users without an organization; organization: its tab. */
export type UserListMode = 'all' | 'unassign' | 'organization';

const LIST_DEFAULTS: Partial<TBaseListParams> = { ordering: '-created' };
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** URL state → `GET organization/user/` parameters. The period filters the user's creation date. */
export function toUserQuery(state: TBaseListParams, mode: UserListMode, organizationId?: number): TOrganizationUserListParams {
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ...(mode === 'organization' && organizationId !== undefined ? { organization_id: organizationId } : {}),
    ...(mode === 'unassign' ? { is_unassigned: true } : {}),
    // Period tabs appear only outside an organization (part 2 §2.2).
    ...(mode === 'organization' ? {} : periodToQuery(state, 'created')),
  };
}

const ACTION_META: Record<Exclude<TUserRowAction, 'details'>, { label: string; icon: React.ReactNode; color?: string }> = {
  assign: { label: 'Assign', icon: <IconUserPlus size={16} /> },
  unassign: { label: 'Unassign', icon: <IconLinkOff size={16} />, color: 'red' },
  transfer: { label: 'Transfer', icon: <IconArrowsExchange size={16} /> },
};

type UserListProps = {
  mode: UserListMode;
  /** The organization of the Users tab (mode 'organization'). */
  organization?: { id: number; name: string; can_create_organization: boolean };
  title: string;
};

export function UserList({ mode, organization, title }: UserListProps) {
  const session = useSessionUser();
  const role: TUserType = session.user_type;
  const embedded = mode === 'organization';
  const { params, setParams, hasFilters } = useListParams(ZBaseListParams, LIST_DEFAULTS);
  const query = useUsers(toUserQuery(params, mode, organization?.id));
  const actor = actorOf(session);
  const patchUser = usePatchUser();
  const [form, setForm] = useState<UserFormView | null>(null);
  const [transferring, setTransferring] = useState<TOrganizationUser | null>(null);

  const unassign = async (user: TOrganizationUser) => {
    const ok = await confirm({ message: USER_MESSAGES.unassignConfirm(fullName(user)), confirmLabel: 'Unassign', danger: true });
    if (!ok) return;
    try {
      const saved = await patchUser.mutateAsync({ id: user.id, patch: { organization: null } });
      notifications.show({ color: 'teal', message: saved.detail || USER_MESSAGES.unassigned });
    } catch (error) {
      // 401, 403 and 5xx are announced by the client.
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status >= 500))) {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    }
  };

  const rowActions = (user: TOrganizationUser): RowAction[] =>
    userRowActions(actor, user).map((action) => {
      switch (action) {
        case 'details':
          return { label: 'Details', icon: <IconEye size={16} />, onClick: () => setForm({ mode: 'details', userId: user.id }) };
        case 'assign':
          // Part 2 §4: a user without an organization is assigned through the edit dialog.
          return { ...ACTION_META.assign, onClick: () => setForm({ mode: 'edit', userId: user.id }) };
        case 'unassign':
          return { ...ACTION_META.unassign, onClick: () => void unassign(user) };
        case 'transfer':
          return { ...ACTION_META.transfer, onClick: () => setTransferring(user) };
      }
    });

  const columns: ListColumn<TOrganizationUser>[] = [
    {
      accessor: 'first_name',
      title: 'Name',
      sortable: true,
      render: (user) => (
        <Text size="sm" fw={600}>
          {fullName(user)}
        </Text>
      ),
    },
    {
      accessor: 'mobile',
      title: 'Mobile',
      hideOnPhone: true,
      // '+91-9876543210' on one line: the hyphen would otherwise break it in two.
      render: (user) => (user.mobile ? <Text size="sm" style={NO_WRAP}>{user.mobile}</Text> : <Text c="dimmed">—</Text>),
    },
    { accessor: 'email', title: 'E-mail', hideOnPhone: true, render: (user) => user.email ?? <Text c="dimmed">—</Text> },
    {
      accessor: 'user_type',
      title: 'User Type',
      render: (user) => (
        <Text size="sm" style={NO_WRAP}>
          {ROLE_LABELS[user.user_type]}
        </Text>
      ),
    },
    {
      accessor: 'ibe_training_status',
      title: 'IBE Training Status',
      hideOnPhone: true,
      render: (user) => trainingStatusLabel(user.ibe_training_status),
    },
    ...(mode === 'all'
      ? [
          {
            accessor: 'organization',
            title: 'Organization',
            hideOnPhone: true,
            // Managers (through their links) and Super Admins belong to no organization: not "unassigned".
            render: (user: TOrganizationUser) => (
              <OrganizationCell
                organization={user.organization_data}
                none={userTypeTakesOrganization(user.user_type) ? 'Unassigned' : '—'}
              />
            ),
          } satisfies ListColumn<TOrganizationUser>,
        ]
      : []),
    { accessor: 'created', title: 'Created', hideOnPhone: true, render: (user) => <ListDate value={user.created} /> },
    { accessor: 'id', title: 'ID', hideOnPhone: true },
  ];

  const count = query.data?.count ?? 0;
  const createButton = canUser(role, 'user.create') && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ mode: 'create' })} data-testid="user-create">
      Create
    </Button>
  );

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        actions={
          <>
            {!embedded && <TrashButton area="users" />}
            {createButton || null}
          </>
        }
        testId="user-list"
        filters={
          <SearchInput
            placeholder={USER_MESSAGES.searchPlaceholder}
            value={params.search}
            onChange={(search) => setParams({ search })}
            w={{ base: '100%', sm: 300 }}
          />
        }
        period={
          embedded ? undefined : (
            <PeriodTabs
              value={params.period}
              range={{ from: params.from, to: params.to }}
              onChange={(period, range) => setParams({ period, ...range })}
            />
          )
        }
        footer={
          <ListFooter
            page={params.page}
            limit={params.limit}
            total={count}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        {query.isError && !(query.error instanceof ApiError && query.error.status === 401) && (
          <Alert color="red" variant="light" m="md" data-testid="user-list-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={emptyText(USER_MESSAGES.emptyNoun, hasFilters)}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(user) => `Actions for ${fullName(user)}`}
          testId="user-table"
        />
      </ListPage>

      <UserFormDialog
        opened={form !== null}
        view={form ?? { mode: 'create' }}
        organization={organization}
        onViewChange={setForm}
        onClose={() => setForm(null)}
      />
      <UserTransferDialog opened={transferring !== null} user={transferring} onClose={() => setTransferring(null)} />
    </>
  );
}
