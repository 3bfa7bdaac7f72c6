// The cervical exam list (part 3 §2 "Cervical exam list"): debounced search, the three time tabs, the filter panel
// with its badge, the `device` link parameter, the columns with Reviewer 1 and Reviewer 2, Details and Report, Review
// for the roles with review capability, Final read for an ADMIN on a disagreement, both empty states and the
// streamed cervaical CSV. Embeddable in an organization page (that organization's exams, no organization column) or
// driven by a list of exam ids (POST cervaical/ids/; a failed read says 'No data. Zoom in and try again.'). The
// patient, technician and device cells open their dialogs, as in the breast scan list.
import { useMemo, useState } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconEye, IconFileText, IconGavel, IconPhotoCheck } from '@tabler/icons-react';
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
import { canDevice } from '@sc/shared/devices';
import { canListUsers } from '@sc/shared/users';
import { canPatient } from '@sc/shared/patients';
import { showsOrganizationColumn } from '@sc/shared/scans';
import { canUser } from '@sc/shared/user-permissions';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import {
  CellButton,
  ListCsvButton,
  ListLoadError,
  ListParamsFooter,
  fullName,
} from '../../../components/list/ListParts.tsx';
import { examLeadColumns, examTechnicianColumn, useMobileUnderName } from '../../../components/list/ExamColumns.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { CLEARED_PATIENT_FILTER, PatientFilterChip } from '../../../components/list/PatientFilter.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useRecordDialogs } from '../../scans/components/RecordDialogs.tsx';
import { useCervicalByIds, useCervicalList } from '../cervical.api.ts';
import {
  ZCervicalListParams,
  countCervicalFilters,
  toCervicalQuery,
  type TCervicalListState,
} from '../cervicalListParams.ts';
import { CervicalAdjudicationDialog } from './CervicalAdjudicationDialog.tsx';
import { CervicalDetailDialog, type CervicalDetailView } from './CervicalDetailDialog.tsx';
import { CervicalFilterPanel } from './CervicalFilterPanel.tsx';
import { CervicalReviewDialog } from './CervicalReviewDialog.tsx';
import { ReviewerAgreementPanel } from './ReviewerAgreementPanel.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';
import { TrashButton } from '../../../components/trash/TrashButton.tsx';

const LIST_DEFAULTS: Partial<TCervicalListState> = { ordering: CERVICAL_DEFAULT_ORDERING };

/** A date on two lines (day, then time): the nine columns fit beside the menu at 1400 px. */
function DateCell({ value }: { value: string }) {
  const date = dayjs(value);
  return (
    <Text
      component="time"
      dateTime={date.toISOString()}
      size="sm"
      style={{ whiteSpace: 'nowrap', display: 'block' }}
    >
      {date.format('DD MMM YYYY')}
      <Text span display="block" size="xs" c="dimmed">
        {date.format('hh:mm A')}
      </Text>
    </Text>
  );
}

export function CervicalList({
  embedded = false,
  title = 'Cervical Exams',
  organizationId,
  ids,
}: {
  embedded?: boolean;
  title?: string;
  organizationId?: number;
  /** Exactly these exams (opened from a map with ids): no search, period, filters or CSV. */
  ids?: readonly number[];
}) {
  const role: TUserType = useSessionUser().user_type;
  const phone = usePhoneLayout();
  const mobileUnderName = useMobileUnderName();
  const { params, setParams } = useListParams(ZCervicalListParams, LIST_DEFAULTS);
  const apiQuery = useMemo(() => toCervicalQuery(params, organizationId), [params, organizationId]);
  const byFilters = useCervicalList(apiQuery, ids === undefined);
  const byIds = useCervicalByIds(ids, { page: params.page, limit: params.limit, ordering: params.ordering });
  const query = ids === undefined ? byFilters : byIds;
  const idsFailed = ids !== undefined && query.isError;
  // A CERVAICAL_REVIEWER reads exams, not patients, users or devices: their cells stay text (the patient's opens the
  // exam's detail).
  const opensPatient = canPatient(role, 'patient.read');
  const opensUser = canUser(role, 'user.read');
  const opensDevice = canDevice(role, 'device.read');
  const [detail, setDetail] = useState<CervicalDetailView | null>(null);
  const [reviewOf, setReviewOf] = useState<number | null>(null);
  const [adjudicating, setAdjudicating] = useState<TCervicalRow | null>(null);
  // The patient, technician and device cells open their own dialogs (part 3 §2); the patient's is read-only here.
  const records = useRecordDialogs(role);

  const hasFilters =
    ids === undefined &&
    (params.search !== '' ||
      params.period !== 'today' ||
      countCervicalFilters(params) > 0 ||
      params.patient !== undefined);
  const withOrganization = showsOrganizationColumn(role, organizationId !== undefined);
  const count = query.data?.count ?? 0;

  const rowActions = (exam: TCervicalRow): RowAction[] => [
    {
      label: 'Details',
      icon: <IconEye size={16} />,
      onClick: () => setDetail({ id: exam.id, mode: 'detail' }),
    },
    ...(exam.file_path.reports.length > 0
      ? [
          {
            label: 'Report',
            icon: <IconFileText size={16} />,
            onClick: () => setDetail({ id: exam.id, mode: 'report' as const }),
          },
        ]
      : []),
    ...(canOpenReview(role)
      ? [{ label: 'Review', icon: <IconPhotoCheck size={16} />, onClick: () => setReviewOf(exam.id) }]
      : []),
    ...(canAdjudicate(role) && exam.disagreement
      ? [{ label: 'Final read', icon: <IconGavel size={16} />, onClick: () => setAdjudicating(exam) }]
      : []),
  ];

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
          <Badge
            size="xs"
            color={exam.adjudication ? 'gray.7' : 'violet.9'}
            variant={exam.adjudication ? 'outline' : 'filled'}
          >
            {exam.adjudication
              ? `Final: ${exam.adjudication.final_status === 'VALID' ? 'Valid' : 'Invalid'}`
              : 'Disagree'}
          </Badge>
        )}
      </Stack>
    );
  };

  const openDetail = (exam: TCervicalRow) => setDetail({ id: exam.id, mode: 'detail' });
  const columns: ListColumn<TCervicalRow>[] = [
    ...examLeadColumns<TCervicalRow>({
      testId: 'cervical',
      patientOf: (exam) => exam.patient,
      openDetail,
      openPatient: opensPatient ? records.openPatient : undefined,
      withOrganization,
      mobileUnderName: mobileUnderName && !phone,
    }),
    // The technician opens the user's dialog; the exam's device, under it, the device's (the spec's columns have no
    // device column of their own, its cells do open one: docs/decisions.md "Cervical list cells").
    examTechnicianColumn<TCervicalRow>({
      testId: 'cervical',
      nameOf: (exam) => exam.technician_name,
      openUser: opensUser ? records.openUser : undefined,
      below: (exam) =>
        exam.device_serial_number &&
        (exam.device_id === null || !opensDevice ? (
          <Text size="xs" c="dimmed" ff="monospace">
            {exam.device_serial_number}
          </Text>
        ) : (
          <CellButton
            label={exam.device_serial_number}
            onClick={() => exam.device_id !== null && records.openDevice(exam.device_id)}
            testId={`cervical-device-${exam.id}`}
          />
        )),
    }),
    {
      accessor: 'date_time',
      title: 'Exam Time',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => <DateCell value={exam.date_time} />,
    },
    {
      accessor: 'created',
      title: 'Synced On',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => <DateCell value={exam.created} />,
    },
    // On a phone both reviewers share one column, R1 over R2: two columns of 'Not Reviewed' badges beside the name
    // made the table 438 px in a 356 px card, Reviewer 2 under the pinned actions.
    ...(phone
      ? [
          {
            accessor: 'reviewer_one_status',
            title: 'Reviewers',
            sortable: true,
            render: (exam: TCervicalRow) => (
              <Stack gap={6}>
                {(['one', 'two'] as const).map((slot) => (
                  <Group key={slot} gap={6} wrap="nowrap" align="flex-start">
                    <Text size="xs" c="dimmed" w={18} lh="20px">
                      {slot === 'one' ? 'R1' : 'R2'}
                    </Text>
                    {reviewerCell(exam, slot)}
                  </Group>
                ))}
              </Stack>
            ),
          } satisfies ListColumn<TCervicalRow>,
        ]
      : [
          {
            accessor: 'reviewer_one_status',
            title: 'Reviewer 1',
            sortable: true,
            render: (exam: TCervicalRow) => reviewerCell(exam, 'one'),
          } satisfies ListColumn<TCervicalRow>,
          {
            accessor: 'reviewer_two_status',
            title: 'Reviewer 2',
            sortable: true,
            render: (exam: TCervicalRow) => reviewerCell(exam, 'two'),
          } satisfies ListColumn<TCervicalRow>,
        ]),
  ];

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        testId="cervical-list"
        actions={
          ids === undefined && (
            <>
            {!embedded && <TrashButton area="exams" />}
            <ListCsvButton
              path="cervaical/"
              query={apiQuery}
              total={count}
              filename={CERVICAL_CSV_FILENAME}
              testId="cervical-csv"
            />
            </>
          )
        }
        filters={
          ids === undefined && (
            <>
              <SearchInput
                placeholder={CERVICAL_MESSAGES.searchPlaceholder}
                value={params.search}
                onChange={(search) => setParams({ search })}
                w={{ base: '100%', sm: 280 }}
              />
              <CervicalFilterPanel
                key={params.device ?? ''}
                state={params}
                onChange={setParams}
                organizationId={organizationId}
                readsDevices={opensDevice}
                readsUsers={canListUsers(role)}
              />
              <PatientFilterChip
                patient={params.patient}
                name={params.patient_name}
                onRemove={() => setParams(CLEARED_PATIENT_FILTER)}
              />
            </>
          )
        }
        period={
          ids === undefined && (
            <PeriodTabs
              value={params.period}
              range={{ from: params.from, to: params.to }}
              onChange={(period, range) => setParams({ period, ...range })}
            />
          )
        }
        footer={<ListParamsFooter params={params} setParams={setParams} total={count} />}
      >
        {/* A failed read of ?ids= is said once, as the empty table's text. */}
        {!idsFailed && <ListLoadError error={query.error} testId="cervical-list-error" />}
        <ListTable
          records={idsFailed ? [] : query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={
            idsFailed
              ? CERVICAL_MESSAGES.idsLoadFailed
              : hasFilters
                ? CERVICAL_MESSAGES.emptyFiltered
                : CERVICAL_MESSAGES.emptyNoFilters
          }
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(exam) => `Actions for cervical exam ${exam.id}`}
          testId="cervical-table"
        />
      </ListPage>
      {!embedded && ids === undefined && canOpenReview(role) && (
        <ReviewerAgreementPanel organizationId={organizationId} />
      )}
      <CervicalDetailDialog view={detail} onClose={() => setDetail(null)} />
      <CervicalReviewDialog examId={reviewOf} onClose={() => setReviewOf(null)} />
      <CervicalAdjudicationDialog exam={adjudicating} onClose={() => setAdjudicating(null)} />
      {records.dialogs}
    </>
  );
}
