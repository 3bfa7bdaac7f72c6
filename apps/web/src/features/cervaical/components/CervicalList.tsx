// The cervical exam list (part 3 §2 "Cervical exam list"): debounced search, the three time tabs, the filter panel
// with its badge, the `device` link parameter, the columns with Reviewer 1 and Reviewer 2, Details and Report, Review
// for the roles with review capability, Final read for an ADMIN on a disagreement, both empty states and the
// streamed cervaical CSV. Embeddable in an organization page (that organization's exams, no organization column).
import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconEye, IconFileText, IconGavel, IconPhotoCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import type { TUserType } from '@sc/shared/roles';
import {
  CERVICAL_CSV_FILENAME,
  CERVICAL_DEFAULT_ORDERING,
  CERVICAL_MESSAGES,
  canAdjudicate,
  canOpenReview,
  type TCervicalRow,
} from '@sc/shared/cervical';
import { showsOrganizationColumn } from '@sc/shared/scans';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useCervicalList } from '../cervical.api.ts';
import { ZCervicalListParams, countCervicalFilters, toCervicalQuery, type TCervicalListState } from '../cervicalListParams.ts';
import { CervicalAdjudicationDialog } from './CervicalAdjudicationDialog.tsx';
import { CervicalDetailDialog, type CervicalDetailView } from './CervicalDetailDialog.tsx';
import { CervicalFilterPanel } from './CervicalFilterPanel.tsx';
import { CervicalReviewDialog } from './CervicalReviewDialog.tsx';
import { ReviewerAgreementPanel } from './ReviewerAgreementPanel.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';

const LIST_DEFAULTS: Partial<TCervicalListState> = { ordering: CERVICAL_DEFAULT_ORDERING };

/** A date on two lines (day, then time): the nine columns fit beside the menu at 1400 px. */
function DateCell({ value }: { value: string }) {
  const date = dayjs(value);
  return (
    <Text component="time" dateTime={date.toISOString()} size="sm" style={{ whiteSpace: 'nowrap', display: 'block' }}>
      {date.format('DD MMM YYYY')}
      <Text span display="block" size="xs" c="dimmed">
        {date.format('hh:mm A')}
      </Text>
    </Text>
  );
}

const fullName = (p: { first_name: string; last_name: string } | null | undefined): string =>
  p ? `${p.first_name} ${p.last_name}`.trim() : '';

export function CervicalList({
  embedded = false,
  title = 'Cervical Exams',
  organizationId,
}: {
  embedded?: boolean;
  title?: string;
  organizationId?: number;
}) {
  const role: TUserType = useSessionUser().user_type;
  const phone = usePhoneLayout();
  const { params, setParams } = useListParams(ZCervicalListParams, LIST_DEFAULTS);
  const apiQuery = useMemo(() => toCervicalQuery(params, organizationId), [params, organizationId]);
  const query = useCervicalList(apiQuery);
  const [detail, setDetail] = useState<CervicalDetailView | null>(null);
  const [reviewOf, setReviewOf] = useState<number | null>(null);
  const [adjudicating, setAdjudicating] = useState<TCervicalRow | null>(null);

  const hasFilters = params.search !== '' || params.period !== 'today' || countCervicalFilters(params) > 0;
  const withOrganization = showsOrganizationColumn(role, organizationId !== undefined);
  const count = query.data?.count ?? 0;

  const rowActions = (exam: TCervicalRow): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDetail({ id: exam.id, mode: 'detail' }) },
    ...(exam.file_path.reports.length > 0
      ? [{ label: 'Report', icon: <IconFileText size={16} />, onClick: () => setDetail({ id: exam.id, mode: 'report' as const }) }]
      : []),
    ...(canOpenReview(role)
      ? [{ label: 'Review', icon: <IconPhotoCheck size={16} />, onClick: () => setReviewOf(exam.id) }]
      : []),
    ...(canAdjudicate(role) && exam.disagreement
      ? [{ label: 'Final read', icon: <IconGavel size={16} />, onClick: () => setAdjudicating(exam) }]
      : []),
  ];

  const cellButton = (label: string, onClick: () => void, testId: string) => (
    <UnstyledButton
      onClick={onClick}
      data-testid={testId}
      style={{ textDecoration: 'underline dotted', fontSize: 'var(--mantine-font-size-sm)', whiteSpace: 'nowrap' }}
    >
      {label}
    </UnstyledButton>
  );

  const reviewerCell = (exam: TCervicalRow, slot: 'one' | 'two') => {
    const status = slot === 'one' ? exam.reviewer_one_status : exam.reviewer_two_status;
    const who = slot === 'one' ? exam.reviewer_one : exam.reviewer_two;
    return (
      <Stack gap={2} data-testid={`reviewer-${slot}-${exam.id}`}>
        <ReviewerStatusBadge status={status} />
        {who && !phone && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {fullName(who)}
          </Text>
        )}
        {slot === 'two' && exam.disagreement && (
          <Badge size="xs" color={exam.adjudication ? 'gray.7' : 'violet.9'} variant={exam.adjudication ? 'outline' : 'filled'}>
            {exam.adjudication ? `Final: ${exam.adjudication.final_status === 'VALID' ? 'Valid' : 'Invalid'}` : 'Disagree'}
          </Badge>
        )}
      </Stack>
    );
  };

  const columns: ListColumn<TCervicalRow>[] = [
    {
      accessor: 'id',
      title: 'ID',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => cellButton(String(exam.id), () => setDetail({ id: exam.id, mode: 'detail' }), `cervical-id-${exam.id}`),
    },
    {
      accessor: 'first_name',
      title: 'Patient Name',
      sortable: true,
      render: (exam) =>
        cellButton(fullName(exam.patient) || '—', () => setDetail({ id: exam.id, mode: 'detail' }), `cervical-patient-${exam.id}`),
    },
    {
      accessor: 'mobile',
      title: 'Mobile',
      hideOnPhone: true,
      render: (exam) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {exam.patient?.mobile ?? '—'}
        </Text>
      ),
    },
    ...(withOrganization
      ? [
          {
            accessor: 'organization_name',
            title: 'Organization',
            sortable: true,
            hideOnPhone: true,
            render: (exam: TCervicalRow) =>
              exam.organization_data ? (
                <Anchor component={Link} to={`/organization/${exam.organization_data.id}`} size="sm">
                  {exam.organization_data.name}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  Unassigned
                </Text>
              ),
          } satisfies ListColumn<TCervicalRow>,
        ]
      : []),
    {
      accessor: 'technician_name',
      title: 'Technician',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => exam.technician_name || '—',
    },
    { accessor: 'date_time', title: 'Exam Time', sortable: true, hideOnPhone: true, render: (exam) => <DateCell value={exam.date_time} /> },
    { accessor: 'created', title: 'Synced On', sortable: true, hideOnPhone: true, render: (exam) => <DateCell value={exam.created} /> },
    { accessor: 'reviewer_one_status', title: 'Reviewer 1', sortable: true, render: (exam) => reviewerCell(exam, 'one') },
    { accessor: 'reviewer_two_status', title: 'Reviewer 2', sortable: true, render: (exam) => reviewerCell(exam, 'two') },
  ];

  const { page: _page, limit: _limit, ordering: _ordering, ...csvQuery } = apiQuery;

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        testId="cervical-list"
        actions={
          <Group gap="xs">
            <CsvDownloadButton
              path="cervaical/"
              query={csvQuery}
              total={count}
              filename={CERVICAL_CSV_FILENAME}
              disabled={count === 0}
              testId="cervical-csv"
            />
          </Group>
        }
        filters={
          <>
            <SearchInput
              placeholder={CERVICAL_MESSAGES.searchPlaceholder}
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 280 }}
            />
            <CervicalFilterPanel key={params.device ?? ''} state={params} onChange={setParams} organizationId={organizationId} />
          </>
        }
        period={
          <PeriodTabs value={params.period} range={{ from: params.from, to: params.to }} onChange={(period, range) => setParams({ period, ...range })} />
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
          <Alert color="red" variant="light" m="md" data-testid="cervical-list-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={hasFilters ? CERVICAL_MESSAGES.emptyFiltered : CERVICAL_MESSAGES.emptyNoFilters}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(exam) => `Actions for cervical exam ${exam.id}`}
          testId="cervical-table"
        />
      </ListPage>
      {!embedded && canOpenReview(role) && <ReviewerAgreementPanel organizationId={organizationId} />}
      <CervicalDetailDialog view={detail} onClose={() => setDetail(null)} />
      <CervicalReviewDialog examId={reviewOf} onClose={() => setReviewOf(null)} />
      <CervicalAdjudicationDialog exam={adjudicating} onClose={() => setAdjudicating(null)} />
    </>
  );
}
