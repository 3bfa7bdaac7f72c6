// The audit screen (issue 27): the trail newest first, keyset-paged (Newest / Newer / Older), every filter in the URL:
// action group, actor, target type and id, organization (not for an ORG_ADMIN, who has one), outcome and period.
// Columns when, who (and as whom), action, target, outcome, address; a row opens its details and changes. CSV of the
// filtered rows; the retention setting for AUDIT_SETTINGS_ROLES.
import { useEffect, useRef, useState } from 'react';
import { Anchor, Box, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  AUDIT_CSV_FILENAME,
  AUDIT_GROUPS,
  AUDIT_GROUP_LABELS,
  AUDIT_OUTCOMES,
  AUDIT_PATHS,
  AUDIT_SETTINGS_ROLES,
  AUDIT_TARGET_ID_NEEDS_TYPE,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  ZAuditListQuery,
  type TAuditRow,
} from '@sc/shared/audit';
import type { TSessionUser } from '@sc/shared/auth';
import { ROLE_LABELS } from '@sc/shared/roles';
import { SEARCH_DEBOUNCE_MS } from '@sc/shared/constants';
import { KeysetFooter } from '../../../components/list/ListFooter.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListCsvButton, ListLoadError } from '../../../components/list/ListParts.tsx';
import { ListTable, emptyText, type ListColumn } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { keysetParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { useAuditRows, type TAuditQuery } from '../audit.api.ts';
import { ActorSelect } from './ActorSelect.tsx';
import { AuditOutcomeBadge, AuditRowDialog } from './AuditRowDialog.tsx';
import { AuditRetentionButton } from './AuditRetentionForm.tsx';
import { SYSTEM_ACTOR, actionLabel, groupLabel, targetLabel, targetPath, whoOf } from './auditFormat.ts';

const id = z.coerce.number().int().positive().optional().catch(undefined);
export const ZAuditListParams = keysetParamsSchema({
  group: z.enum(AUDIT_GROUPS).optional().catch(undefined),
  actor: id,
  actor_name: z.string().max(200).optional().catch(undefined),
  target_type: z.enum(AUDIT_TARGET_TYPES).optional().catch(undefined),
  // Kept as typed (checked on the field with the API's rule), so a bad id in a link is shown, not dropped.
  target_id: z.string().max(200).optional().catch(undefined),
  organization: id,
  organization_name: z.string().max(200).optional().catch(undefined),
  outcome: z.enum(AUDIT_OUTCOMES).optional().catch(undefined),
});
export type TAuditListParams = z.infer<typeof ZAuditListParams>;

const ZTargetId = ZAuditListQuery.shape.target_id;

/** The field's message for a target id: the API's rule, and the type it needs; undefined when it may be sent. */
export function targetIdError(params: Pick<TAuditListParams, 'target_type' | 'target_id'>): string | undefined {
  if (!params.target_id) return undefined;
  const checked = ZTargetId.safeParse(params.target_id);
  if (!checked.success) return checked.error.issues[0]?.message;
  return params.target_type ? undefined : AUDIT_TARGET_ID_NEEDS_TYPE;
}

/** The API query of the list's URL state. A target id the API would refuse is left out (its field says why). */
export function auditQuery(params: TAuditListParams, now: Date = new Date()): TAuditQuery {
  const targetId = params.target_id?.trim();
  return {
    limit: params.limit,
    ...(params.before ? { before: params.before } : params.after ? { after: params.after } : {}),
    ...(params.group ? { group: params.group } : {}),
    ...(params.actor ? { actor: params.actor } : {}),
    ...(params.target_type ? { target_type: params.target_type } : {}),
    ...(params.target_type && targetId && !targetIdError(params) ? { target_id: targetId } : {}),
    ...(params.organization ? { organization: params.organization } : {}),
    ...(params.outcome ? { outcome: params.outcome } : {}),
    ...periodToQuery(params, 'created', now),
  };
}

/** Roles whose scope may hold more than one organization pick one; an ORG_ADMIN reads its own. */
export const showsAuditOrganizationFilter = (user: Pick<TSessionUser, 'user_type'>): boolean =>
  user.user_type !== 'ORG_ADMIN';

const GROUP_OPTIONS = [{ value: 'all', label: 'All actions' }, ...AUDIT_GROUPS.map((g) => ({ value: g, label: AUDIT_GROUP_LABELS[g] }))];
const TARGET_OPTIONS = [
  { value: 'all', label: 'All targets' },
  ...AUDIT_TARGET_TYPES.map((t) => ({ value: t, label: AUDIT_TARGET_LABELS[t] })),
];
const OUTCOME_OPTIONS = [
  { value: 'all', label: 'All outcomes' },
  { value: 'success', label: 'Success' },
  { value: 'failure', label: 'Failure' },
];

/**
 * The Who cell: the person at the keyboard, their role under the name; under impersonation 'as' the user they acted
 * as (whoOf's wording).
 */
export function WhoCell({ row }: { row: Pick<TAuditRow, 'actor' | 'impersonator'> }) {
  const person = row.impersonator ?? row.actor;
  const { as } = whoOf(row);
  return (
    <Stack gap={0}>
      <Text size="sm">{person?.name ?? SYSTEM_ACTOR}</Text>
      {person?.user_type && (
        <Text size="xs" c="dimmed">
          {ROLE_LABELS[person.user_type]}
        </Text>
      )}
      {as && (
        <Text size="xs" c="dimmed" data-testid="audit-as">
          as {as}
        </Text>
      )}
    </Stack>
  );
}

export function ActionCell({ row }: { row: TAuditRow }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{actionLabel(row.action)}</Text>
      <Text size="xs" c="dimmed">
        {groupLabel(row)}
      </Text>
    </Stack>
  );
}

export function TargetCell({ row }: { row: TAuditRow }) {
  const label = targetLabel(row);
  const path = targetPath(row);
  if (!label) return <Text c="dimmed">—</Text>;
  return path ? (
    <Anchor component={Link} to={path} size="sm" onClick={(e) => e.stopPropagation()}>
      {label}
    </Anchor>
  ) : (
    <Text size="sm">{label}</Text>
  );
}

/** The target id box: typed freely, written to the URL once the typing pauses (the list kit's search box's way). */
function TargetIdInput({ value, error, onChange }: { value: string; error?: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [prevValue, setPrevValue] = useState(value);
  if (value !== prevValue) {
    setPrevValue(value);
    if (value !== text.trim()) setText(value);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <TextInput
      aria-label="Target id"
      placeholder="Target id"
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => next.trim() !== value && onChange(next.trim()), SEARCH_DEBOUNCE_MS);
      }}
      error={error}
      w={{ base: '100%', sm: 130 }}
      data-testid="audit-target-id-filter"
    />
  );
}

export function AuditList({ user, title }: { user: TSessionUser; title: string }) {
  const { params, setParams, hasFilters } = useListParams(ZAuditListParams);
  const [open, setOpen] = useState<TAuditRow | undefined>(undefined);
  const query = auditQuery(params);
  const rows = useAuditRows(query);
  const withOrganization = showsAuditOrganizationFilter(user);
  const total = rows.data?.count ?? 0;

  const columns: ListColumn<TAuditRow>[] = [
    { accessor: 'created', title: 'When', render: (r) => <ListDate value={r.created} /> },
    { accessor: 'actor', title: 'Who', render: (r) => <WhoCell row={r} /> },
    { accessor: 'action', title: 'Action', render: (r) => <ActionCell row={r} /> },
    { accessor: 'target_id', title: 'Target', priority: 3, render: (r) => <TargetCell row={r} /> },
    ...(withOrganization
      ? [
          {
            accessor: 'organization',
            title: 'Organization',
            hideOnPhone: true,
            priority: 1,
            render: (r: TAuditRow) => <Text size="sm">{r.organization?.name ?? '—'}</Text>,
          } satisfies ListColumn<TAuditRow>,
        ]
      : []),
    { accessor: 'outcome', title: 'Outcome', render: (r) => <AuditOutcomeBadge outcome={r.outcome} /> },
    {
      accessor: 'ip',
      title: 'Address',
      hideOnPhone: true,
      priority: 2,
      render: (r) => <Text size="sm">{r.ip ?? '—'}</Text>,
    },
  ];

  const { before: _before, after: _after, limit: _limit, ...csvQuery } = query;

  return (
    <>
      <ListPage
        title={title}
        testId="audit-list"
        actions={
          <Group gap="sm">
            {AUDIT_SETTINGS_ROLES.includes(user.user_type) && <AuditRetentionButton />}
            <ListCsvButton
              path={AUDIT_PATHS.list}
              query={csvQuery}
              total={total}
              filename={AUDIT_CSV_FILENAME}
              testId="audit-csv"
            />
          </Group>
        }
        filters={
          <Group gap="sm" wrap="wrap" align="flex-start">
            <Select
              aria-label="Action group"
              data={GROUP_OPTIONS}
              value={params.group ?? 'all'}
              allowDeselect={false}
              onChange={(g) => setParams({ group: g && g !== 'all' ? (g as TAuditListParams['group']) : undefined })}
              w={{ base: '100%', sm: 230 }}
              data-testid="audit-group-filter"
            />
            <Box w={{ base: '100%', sm: 220 }}>
              <ActorSelect
                value={params.actor}
                valueLabel={params.actor_name}
                onChange={(actor, label) => setParams({ actor, actor_name: label })}
              />
            </Box>
            <Select
              aria-label="Target type"
              data={TARGET_OPTIONS}
              value={params.target_type ?? 'all'}
              allowDeselect={false}
              onChange={(t) =>
                setParams({ target_type: t && t !== 'all' ? (t as TAuditListParams['target_type']) : undefined })
              }
              w={{ base: '100%', sm: 170 }}
              data-testid="audit-target-type-filter"
            />
            <TargetIdInput
              value={params.target_id ?? ''}
              error={targetIdError(params)}
              onChange={(target_id) => setParams({ target_id })}
            />
            {withOrganization && (
              <Box w={{ base: '100%', sm: 220 }}>
                <OrganizationPicker
                  label=""
                  withAsterisk={false}
                  value={params.organization ?? null}
                  valueLabel={params.organization_name}
                  onChange={(organization, org) =>
                    setParams({ organization: organization ?? undefined, organization_name: org?.name })
                  }
                  testId="audit-organization-filter"
                />
              </Box>
            )}
            <Select
              aria-label="Outcome"
              data={OUTCOME_OPTIONS}
              value={params.outcome ?? 'all'}
              allowDeselect={false}
              onChange={(o) => setParams({ outcome: o && o !== 'all' ? (o as TAuditListParams['outcome']) : undefined })}
              w={{ base: '100%', sm: 150 }}
              data-testid="audit-outcome-filter"
            />
          </Group>
        }
        period={
          <PeriodTabs
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(period, range) => setParams({ period, ...range })}
          />
        }
        footer={
          <KeysetFooter
            limit={params.limit}
            total={total}
            capped={rows.data?.count_capped}
            next={rows.data?.next}
            previous={rows.data?.previous}
            paged={params.before !== undefined || params.after !== undefined}
            onCursorChange={(cursor) => setParams({ before: cursor.before, after: cursor.after })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        <ListLoadError error={rows.error} testId="audit-list-error" />
        <ListTable
          records={rows.data?.results}
          columns={columns}
          fetching={rows.isFetching}
          onRowClick={setOpen}
          emptyText={emptyText('audit rows', hasFilters)}
          testId="audit-table"
        />
      </ListPage>
      <AuditRowDialog row={open} onClose={() => setOpen(undefined)} />
    </>
  );
}
