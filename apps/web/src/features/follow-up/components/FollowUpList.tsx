// The follow-up worklist (issue 26): search (name, mobile), status (All, Active, each status, Closing), Overdue only,
// a window of next due dates, the organization (roles whose scope has more than one), the assigned user (or
// Unassigned), the modality, and period tabs on the date the case opened. Columns patient, mobile, organization,
// modality, opened, last action, next due (red with the days overdue), status, assigned; overdue first by default.
// A row opens the case dialog.
import { useState } from 'react';
import { Box, Button, Group, Select, Stack, Switch, Text } from '@mantine/core';
import { IconCalendarDue } from '@tabler/icons-react';
import { z } from 'zod';
import {
  FOLLOW_UP_CSV_FILENAME,
  FOLLOW_UP_DEFAULT_ORDERING,
  FOLLOW_UP_ENTRY_LABELS,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MODALITIES,
  FOLLOW_UP_MODALITY_LABELS,
  FOLLOW_UP_STATUSES,
  FOLLOW_UP_STATUS_LABELS,
  type TFollowUpRow,
} from '@sc/shared/follow-up';
import { isIsoDate } from '@sc/shared/list';
import type { TSessionUser } from '@sc/shared/auth';
import { DateRangeDialog } from '../../../components/list/DateRangeDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import {
  ListCsvButton,
  ListLoadError,
  ListParamsFooter,
  OrganizationCell,
  fullName,
} from '../../../components/list/ListParts.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { formatRange, periodToQuery } from '../../../components/list/periods.ts';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { useFollowUpAssignees, useFollowUpCases, type TFollowUpQuery } from '../follow-up.api.ts';
import { FollowUpStatusBadge, NextDueCell } from './FollowUpBadges.tsx';
import { FollowUpCaseDialog } from './FollowUpCaseDialog.tsx';

const isoDate = z.string().refine(isIsoDate);
const STATUS_FILTERS = ['all', 'active', ...FOLLOW_UP_STATUSES, 'closing'] as const;
export const ZFollowUpListParams = listParamsSchema({
  status: z.enum(STATUS_FILTERS).catch('all'),
  overdue: z.enum(['true']).optional().catch(undefined),
  due_from: isoDate.optional().catch(undefined),
  due_to: isoDate.optional().catch(undefined),
  organization: z.coerce.number().int().positive().optional().catch(undefined),
  organization_name: z.string().max(200).optional().catch(undefined),
  assigned_user: z
    .union([z.literal('none'), z.coerce.number().int().positive()])
    .optional()
    .catch(undefined),
  modality: z.enum(FOLLOW_UP_MODALITIES).optional().catch(undefined),
});
export type TFollowUpListParams = z.infer<typeof ZFollowUpListParams>;
const DEFAULTS = { ordering: FOLLOW_UP_DEFAULT_ORDERING };

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  ...FOLLOW_UP_STATUSES.map((s) => ({ value: s, label: FOLLOW_UP_STATUS_LABELS[s] })),
  { value: 'closing', label: 'Closing' },
];
const MODALITY_OPTIONS = [
  { value: 'all', label: 'All Modalities' },
  ...FOLLOW_UP_MODALITIES.map((m) => ({ value: m, label: FOLLOW_UP_MODALITY_LABELS[m] })),
];

/** The API query of the list's URL state (without paging for the CSV). */
export function followUpQuery(params: TFollowUpListParams, now: Date = new Date()): TFollowUpQuery {
  return {
    page: params.page,
    limit: params.limit,
    ordering: params.ordering,
    ...(params.search ? { search: params.search } : {}),
    ...(params.status === 'all' ? {} : { status: params.status }),
    ...(params.overdue ? { overdue: true } : {}),
    ...(params.due_from ? { due_after: params.due_from, due_before: params.due_to ?? params.due_from } : {}),
    ...(params.organization ? { organization: params.organization } : {}),
    ...(params.assigned_user !== undefined ? { assigned_user: params.assigned_user } : {}),
    ...(params.modality ? { modality: params.modality } : {}),
    ...periodToQuery(params, 'date_time', now),
  } as TFollowUpQuery;
}

/** Roles whose scope may hold more than one organization pick one; an ORG_ADMIN sees its own. */
export const showsOrganizationFilter = (user: Pick<TSessionUser, 'user_type'>): boolean =>
  user.user_type !== 'ORG_ADMIN';

export function FollowUpList({ user, title }: { user: TSessionUser; title: string }) {
  const { params, setParams, hasFilters } = useListParams(ZFollowUpListParams, DEFAULTS);
  const [dueDialog, setDueDialog] = useState(false);
  const [caseId, setCaseId] = useState<number | undefined>(undefined);
  const phone = usePhoneLayout();
  const query = followUpQuery(params);
  const cases = useFollowUpCases(query);
  const withOrganization = showsOrganizationFilter(user);
  const assigneeOrganization =
    params.organization ?? (withOrganization ? undefined : (user.organization ?? undefined));
  const assignees = useFollowUpAssignees(assigneeOrganization);
  const assigneeOptions = [
    { value: 'all', label: 'All Assignees' },
    { value: 'none', label: 'Unassigned' },
    { value: String(user.id), label: 'Assigned to me' },
    ...(assignees.data ?? [])
      .filter((a) => a.id !== user.id)
      .map((a) => ({ value: String(a.id), label: a.name })),
  ];
  if (
    typeof params.assigned_user === 'number' &&
    !assigneeOptions.some((o) => o.value === String(params.assigned_user))
  ) {
    assigneeOptions.push({ value: String(params.assigned_user), label: `User ${params.assigned_user}` });
  }

  const columns: ListColumn<TFollowUpRow>[] = [
    {
      accessor: 'first_name',
      title: 'Patient',
      sortable: true,
      render: (c) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={600}>
            {fullName(c.patient)}
          </Text>
          {phone && <FollowUpStatusBadge status={c.status} size="sm" />}
        </Stack>
      ),
    },
    {
      accessor: 'patient.mobile',
      title: 'Mobile',
      priority: 3,
      render: (c) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {c.patient.mobile ?? '—'}
        </Text>
      ),
    },
    ...(withOrganization
      ? [
          {
            accessor: 'organization.name',
            title: 'Organization',
            hideOnPhone: true,
            render: (c: TFollowUpRow) => <OrganizationCell organization={c.organization} />,
          } satisfies ListColumn<TFollowUpRow>,
        ]
      : []),
    {
      accessor: 'modalities',
      title: 'Modality',
      hideOnPhone: true,
      render: (c) => c.modalities.map((m) => FOLLOW_UP_MODALITY_LABELS[m]).join(', '),
    },
    {
      accessor: 'opened',
      title: 'Opened',
      sortable: true,
      hideOnPhone: true,
      render: (c) => <ListDate value={c.opened} />,
    },
    {
      accessor: 'last_action',
      title: 'Last Action',
      sortable: true,
      hideOnPhone: true,
      render: (c) =>
        c.last_action ? (
          <Stack gap={0}>
            <Text size="sm">{FOLLOW_UP_ENTRY_LABELS[c.last_action.kind]}</Text>
            <ListDate value={c.last_action.at} />
          </Stack>
        ) : (
          '—'
        ),
    },
    {
      accessor: 'next_due',
      title: 'Next Due',
      sortable: true,
      render: (c) => <NextDueCell due={c.next_due} overdue={c.overdue} daysOverdue={c.days_overdue} />,
    },
    ...(phone
      ? []
      : [
          {
            accessor: 'status',
            title: 'Status',
            sortable: true,
            render: (c: TFollowUpRow) => <FollowUpStatusBadge status={c.status} />,
          } satisfies ListColumn<TFollowUpRow>,
        ]),
    {
      accessor: 'assigned_user',
      title: 'Assigned',
      hideOnPhone: true,
      render: (c) =>
        c.assigned_user?.name ?? (
          <Text size="sm" c="dimmed">
            Unassigned
          </Text>
        ),
    },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="follow-up-list"
        actions={
          <ListCsvButton
            path="follow-up/"
            query={query}
            total={cases.data?.count ?? 0}
            filename={FOLLOW_UP_CSV_FILENAME}
            testId="follow-up-csv"
          />
        }
        filters={
          <Group gap="sm" wrap="wrap" align="center">
            <SearchInput
              placeholder={FOLLOW_UP_MESSAGES.searchPlaceholder}
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 240 }}
            />
            <Select
              aria-label="Status"
              data={STATUS_OPTIONS}
              value={params.status}
              allowDeselect={false}
              onChange={(status) => setParams({ status: (status ?? 'all') as TFollowUpListParams['status'] })}
              w={{ base: '100%', sm: 170 }}
              data-testid="follow-up-status-filter"
            />
            <Select
              aria-label="Modality"
              data={MODALITY_OPTIONS}
              value={params.modality ?? 'all'}
              allowDeselect={false}
              onChange={(m) =>
                setParams({ modality: m && m !== 'all' ? (m as TFollowUpListParams['modality']) : undefined })
              }
              w={{ base: '100%', sm: 150 }}
              data-testid="follow-up-modality-filter"
            />
            {withOrganization && (
              <Box w={{ base: '100%', sm: 220 }}>
                <OrganizationPicker
                  label=""
                  withAsterisk={false}
                  value={params.organization ?? null}
                  valueLabel={params.organization_name}
                  onChange={(id, org) =>
                    setParams({
                      organization: id ?? undefined,
                      organization_name: org?.name,
                      assigned_user: undefined,
                    })
                  }
                  testId="follow-up-organization-filter"
                />
              </Box>
            )}
            <Select
              aria-label="Assigned user"
              data={assigneeOptions}
              value={params.assigned_user === undefined ? 'all' : String(params.assigned_user)}
              allowDeselect={false}
              onChange={(v) =>
                setParams({
                  assigned_user: !v || v === 'all' ? undefined : v === 'none' ? 'none' : Number(v),
                })
              }
              w={{ base: '100%', sm: 170 }}
              data-testid="follow-up-assignee-filter"
            />
            <Switch
              label="Overdue only"
              checked={params.overdue === 'true'}
              onChange={(e) => setParams({ overdue: e.currentTarget.checked ? 'true' : undefined })}
              data-testid="follow-up-overdue-filter"
            />
          </Group>
        }
        period={
          <Group gap="xs" wrap="wrap">
            <PeriodTabs
              value={params.period}
              range={{ from: params.from, to: params.to }}
              onChange={(period, range) => setParams({ period, ...range })}
            />
            <Button
              variant={params.due_from ? 'filled' : 'subtle'}
              radius="md"
              leftSection={<IconCalendarDue size={16} />}
              onClick={() => setDueDialog(true)}
              data-testid="follow-up-due-filter"
            >
              {params.due_from
                ? `Due ${formatRange({ from: params.due_from, to: params.due_to })}`
                : 'Next Due'}
            </Button>
            {params.due_from && (
              <Button
                variant="subtle"
                radius="md"
                onClick={() => setParams({ due_from: undefined, due_to: undefined })}
              >
                Clear due dates
              </Button>
            )}
          </Group>
        }
        footer={<ListParamsFooter params={params} setParams={setParams} total={cases.data?.count ?? 0} />}
      >
        <ListLoadError error={cases.error} testId="follow-up-list-error" />
        <ListTable
          records={cases.data?.results}
          columns={columns}
          fetching={cases.isFetching}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          onRowClick={(c) => setCaseId(c.id)}
          rowLabel={(c) => `Follow-up case ${c.id} of ${fullName(c.patient)}`}
          emptyText={
            hasFilters || params.status !== 'all'
              ? FOLLOW_UP_MESSAGES.emptyFiltered
              : FOLLOW_UP_MESSAGES.emptyNone
          }
          testId="follow-up-table"
        />
      </ListPage>
      <DateRangeDialog
        opened={dueDialog}
        title="Next Due"
        dates="scheduled"
        description="Next due dates, each in its organization's calendar."
        initialRange={params.due_from ? { from: params.due_from, to: params.due_to } : undefined}
        onCancel={() => setDueDialog(false)}
        onConfirm={(range) => {
          setDueDialog(false);
          setParams({ due_from: range.from, due_to: range.to });
        }}
      />
      <FollowUpCaseDialog id={caseId} onClose={() => setCaseId(undefined)} />
    </>
  );
}
