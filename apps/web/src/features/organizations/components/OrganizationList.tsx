// The organization list (part 1 §2.4): search, the organization-type filter, period tabs, Add, and
// a table with Details, Edit and Reference actions. Embedded in an organization's Sub-Organization
// tab it lists that organization's children, without title or filter.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Select, Text } from '@mantine/core';
import { IconEye, IconLanguage, IconListDetails, IconPencil, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { formatPositivity } from '@sc/shared/dashboard';
import type { TOrganizationListItem } from '@sc/shared/organizations';
import { can } from '@sc/shared/permissions';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, emptyText, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { LanguageSettingDialog } from '../form/LanguageSettingDialog.tsx';
import { OrganizationFormDialog } from '../form/OrganizationFormDialog.tsx';
import { canAddOrganization, canEditOrganization, hasManyOrganizations } from '../organizationAccess.ts';
import { useInvalidateOrganizations, useOrganizations, type TOrganizationQuery } from '../organizations.api.ts';
import { ReferenceListDialog } from './ReferenceListDialog.tsx';

export const ORGANIZATION_FILTERS = [
  { value: 'all', label: 'All Organizations' },
  { value: 'standalone', label: 'Stand-alone Organizations' },
  { value: 'distributor', label: 'Distributors' },
  { value: 'sub', label: 'Sub-organizations' },
] as const;
type OrganizationFilter = (typeof ORGANIZATION_FILTERS)[number]['value'];

export const ZOrganizationListParams = listParamsSchema({
  filter: z.enum(['all', 'standalone', 'distributor', 'sub']).catch('all'),
});
export type TOrganizationListState = z.infer<typeof ZOrganizationListParams>;

const LIST_DEFAULTS: Partial<TOrganizationListState> = { ordering: '-created' };

const FILTER_QUERY: Record<OrganizationFilter, Partial<TOrganizationQuery>> = {
  all: {},
  standalone: { sub_organisation: false },
  distributor: { can_create_organization: true },
  sub: { sub_organisation: true },
};

/** URL state → `GET organization/` parameters. The period filters the creation date. */
export function toOrganizationQuery(state: TOrganizationListState, parentId?: number): TOrganizationQuery {
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ...(parentId === undefined ? FILTER_QUERY[state.filter] : { parent: parentId }),
    ...periodToQuery(state, 'created'),
  };
}

type OrganizationListProps = {
  /** Inside an organization page: no title, no filter dropdown. */
  embedded?: boolean;
  /** List the children of this organization (the Sub-Organization tab); new ones are created under it. */
  parentId?: number;
};

type FormState = { organizationId: number } | null;

export function OrganizationList({ embedded = false, parentId }: OrganizationListProps) {
  const user = useSessionUser();
  const role = user.user_type;
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const { params, setParams, hasFilters } = useListParams(ZOrganizationListParams, LIST_DEFAULTS);
  const query = useOrganizations(toOrganizationQuery(params, parentId));
  const invalidate = useInvalidateOrganizations();

  const mayAdd = canAddOrganization(user, embedded);
  const mayEdit = canEditOrganization(role);
  const mayManageReferences = can(role, 'reference.manage');
  const showFilter = !embedded && hasManyOrganizations(user);

  // `?create=true` (the user card's Create Organization, or Add) opens the create dialog.
  const createRequested = mayAdd && searchParams.get('create') === 'true';
  const [editing, setEditing] = useState<FormState>(null);
  const [referencesOf, setReferencesOf] = useState<TOrganizationListItem | null>(null);
  const [languagesOf, setLanguagesOf] = useState<TOrganizationListItem | null>(null);

  const setCreate = (on: boolean) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set('create', 'true');
        else next.delete('create');
        return next;
      },
      { replace: true },
    );

  // Where a new organization goes: the embedding organization; a distributor admin's or org
  // admin's own organization (they have no parent picker); else the form's own choice.
  const newParentId =
    parentId ?? (role === 'ORG_ADMIN' || role === 'DISTRIBUTOR_ADMIN' ? (user.organization ?? undefined) : undefined);

  const closeForm = (saved: boolean, isEdit: boolean) => {
    if (isEdit) setEditing(null);
    else setCreate(false);
    // The form announces 'Organization created/updated Successfully' itself; the list reloads here.
    if (saved) void invalidate();
  };

  const columns: ListColumn<TOrganizationListItem>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (org) => (
        // The badge goes under a long name on a narrow screen instead of being squeezed to a dot.
        <Group gap={6} wrap="wrap">
          <Anchor component={Link} to={`/organization/${org.id}`} fw={600} size="sm" c="dark">
            {org.name}
          </Anchor>
          {org.can_create_organization && (
            <Badge size="sm" variant="light" color="grape" data-testid={`distributor-badge-${org.id}`}>
              Distributor
            </Badge>
          )}
        </Group>
      ),
    },
    {
      accessor: 'country',
      title: 'Country',
      // country_data is the country list's entry (part 2 §3); `country` is the stored name it came from.
      render: (org) => org.country_data?.name ?? org.country ?? <Text c="dimmed">—</Text>,
    },
    {
      accessor: 'created',
      title: 'Date',
      sortable: true,
      render: (org) => <ListDate value={org.created} />,
    },
    // Part 1 §3's read-only figures (all time, SCAN-type scans); sortable on the server.
    { accessor: 'scans_count', title: 'Scans', sortable: true, textAlign: 'right' },
    {
      accessor: 'dynamic_positivity_percentage',
      title: 'Positivity',
      sortable: true,
      textAlign: 'right',
      hideOnPhone: true,
      render: (org) => formatPositivity(org.dynamic_positivity_percentage),
    },
    {
      accessor: 'last_sync_date',
      title: 'Last sync',
      sortable: true,
      hideOnPhone: true,
      render: (org) => (org.last_sync_date ? <ListDate value={org.last_sync_date} /> : <Text c="dimmed">—</Text>),
    },
    // On a phone the id goes (it is in the Details link); name, country, date, scans and the actions stay.
    { accessor: 'id', title: 'ID', sortable: true, width: 90, hideOnPhone: true },
  ];

  const rowActions = (org: TOrganizationListItem): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => void navigate(`/organization/${org.id}`) },
    ...(mayEdit ? [{ label: 'Edit', icon: <IconPencil size={16} />, onClick: () => setEditing({ organizationId: org.id }) }] : []),
    ...(mayManageReferences
      ? [{ label: 'Reference', icon: <IconListDetails size={16} />, onClick: () => setReferencesOf(org) }]
      : []),
    // The language setting dialog opens from the list as well as from the form (part 1 §2.5); it saves the
    // organization, so it follows Edit.
    ...(mayEdit
      ? [{ label: 'Language setting', icon: <IconLanguage size={16} />, onClick: () => setLanguagesOf(org) }]
      : []),
  ];

  const addButton = mayAdd ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreate(true)} data-testid="organization-add">
      Add
    </Button>
  ) : null;

  return (
    <>
      <ListPage
        title="Organization"
        embedded={embedded}
        actions={addButton}
        testId="organization-list"
        filters={
          <>
            <SearchInput
              placeholder="Search by organization name and address"
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 360 }}
            />
            {showFilter && (
              <Select
                aria-label="Organization type"
                data={ORGANIZATION_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
                value={params.filter}
                onChange={(value) => value && setParams({ filter: value as OrganizationFilter })}
                allowDeselect={false}
                w={240}
                data-testid="organization-filter"
                comboboxProps={{ withinPortal: true }}
              />
            )}
          </>
        }
        period={
          <PeriodTabs
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(period, range) => setParams({ period, ...range })}
          />
        }
        footer={
          <ListFooter
            page={params.page}
            limit={params.limit}
            total={query.data?.count ?? 0}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        {/* A 401 is announced by the 'Expired User Session' dialog, not repeated here. */}
        {query.isError && !(query.error instanceof ApiError && query.error.status === 401) && (
          <Alert color="red" variant="light" m="md" data-testid="organization-list-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={emptyText('organizations', hasFilters)}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(org) => `Actions for ${org.name}`}
          testId="organization-table"
        />
      </ListPage>

      <OrganizationFormDialog
        opened={editing !== null || createRequested}
        onClose={(saved) => closeForm(saved, editing !== null)}
        organizationId={editing?.organizationId}
        parentId={editing ? undefined : newParentId}
      />
      <ReferenceListDialog
        opened={referencesOf !== null}
        organization={referencesOf}
        onClose={() => setReferencesOf(null)}
      />
      <LanguageSettingDialog
        opened={languagesOf !== null}
        organizationId={languagesOf?.id}
        onClose={() => setLanguagesOf(null)}
      />
    </>
  );
}
