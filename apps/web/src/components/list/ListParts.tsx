// Small pieces every list repeats: a cell that opens a dialog, the footer bound to the list's URL state, the load
// error (a 401 is the session dialog's, not the list's) and the Download CSV button of the list's filters.
import type { ReactNode } from 'react';
import { Alert, Anchor, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { CsvDownloadButton } from '../CsvDownloadButton.tsx';
import { ListFooter } from './ListFooter.tsx';
import type { ListColumn } from './ListTable.tsx';

/** A person's name as a list shows it ('' for none). */
export const fullName = (p: { first_name: string; last_name: string } | null | undefined): string =>
  p ? `${p.first_name} ${p.last_name}`.trim() : '';

/** The Organization cell: a link to the organization's page, or `none` dimmed for a record without one. */
export function OrganizationCell({
  organization,
  none = 'Unassigned',
}: {
  organization: { id: number; name: string } | null | undefined;
  none?: string;
}) {
  return organization ? (
    <Anchor component={Link} to={`/organization/${organization.id}`} size="sm">
      {organization.name}
    </Anchor>
  ) : (
    <Text size="sm" c="dimmed">
      {none}
    </Text>
  );
}

/** The sortable Organization column of the scan and exam lists (sorted by organization_name). */
export function organizationColumn<T extends { organization_data: { id: number; name: string } | null }>(): ListColumn<T> {
  return {
    accessor: 'organization_name',
    title: 'Organization',
    sortable: true,
    hideOnPhone: true,
    render: (row) => <OrganizationCell organization={row.organization_data} />,
  };
}

/** A cell that opens a dialog (patient, technician, device, the row's detail); '—' when there is nothing to open. */
export function CellButton({
  label,
  onClick,
  testId,
}: {
  label: string;
  onClick: () => void;
  testId?: string;
}) {
  return label ? (
    <UnstyledButton
      onClick={onClick}
      data-testid={testId}
      style={{
        textDecoration: 'underline dotted',
        fontSize: 'var(--mantine-font-size-sm)',
        whiteSpace: 'nowrap',
      }}
    >
      {label}
    </UnstyledButton>
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

type Paging = { page: number; limit: number };

/** ListFooter on the list's URL state; `capped`: the total is a lower bound (the answer's `count_capped`). */
export function ListParamsFooter({
  params,
  setParams,
  total,
  capped,
}: {
  params: Paging;
  setParams: (patch: Partial<Paging>) => void;
  total: number;
  capped?: boolean;
}) {
  return (
    <ListFooter
      page={params.page}
      limit={params.limit}
      total={total}
      capped={capped}
      onPageChange={(page) => setParams({ page })}
      onLimitChange={(limit) => setParams({ limit })}
    />
  );
}

/** The list's load error in words; nothing for a 401 (the session dialog answers that) or without an error. */
export function ListLoadError({
  error,
  testId,
  children,
}: {
  error: unknown;
  testId: string;
  children?: ReactNode;
}) {
  if (!error || (error instanceof ApiError && error.status === 401)) return null;
  return (
    <Alert color="red" variant="light" m="md" data-testid={testId}>
      {children ?? errorMessage(error)}
    </Alert>
  );
}

type CsvQuery = Record<string, string | number | boolean | undefined | null>;

/** Download CSV of every row the list's filters select (its query without paging), disabled while the list is empty. */
export function ListCsvButton({
  path,
  query,
  total,
  filename,
  testId,
}: {
  path: string;
  query: CsvQuery;
  total: number;
  filename: string;
  testId: string;
}) {
  const { page: _page, limit: _limit, ordering: _ordering, ...filters } = query;
  return (
    <CsvDownloadButton
      path={path}
      query={filters}
      total={total}
      filename={filename}
      disabled={total === 0}
      testId={testId}
    />
  );
}
