// The ORCA exam list (part 3 §2 "ORCA exam list"; issue 10): debounced search, the three time tabs, the filter panel
// with its badge, the `device` link parameter, the columns with the licence code, Details always and Summary (the
// finding modal) and Report only when the exam has a report file, both empty states and the streamed orca-scan CSV.
// Embeddable in an organization page (organizationId: that organization's exams, no organization column).
import { useMemo, useState } from 'react';
import { Text } from '@mantine/core';
import { IconClipboardList, IconEye, IconFileText } from '@tabler/icons-react';
import type { TUserType } from '@sc/shared/roles';
import {
  ORCA_CSV_FILENAME,
  ORCA_DEFAULT_ORDERING,
  ORCA_MESSAGES,
  orcaRowActions,
  type TOrcaRow,
} from '@sc/shared/orca';
import { showsOrganizationColumn } from '@sc/shared/scans';
import { canUser } from '@sc/shared/user-permissions';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListCsvButton, ListLoadError, ListParamsFooter } from '../../../components/list/ListParts.tsx';
import { examLeadColumns, examTechnicianColumn, useMobileUnderName } from '../../../components/list/ExamColumns.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { CLEARED_PATIENT_FILTER, PatientFilterChip } from '../../../components/list/PatientFilter.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useRecordDialogs } from '../../scans/components/RecordDialogs.tsx';
import { useOrcaList } from '../orca.api.ts';
import { ZOrcaListParams, countOrcaFilters, toOrcaQuery, type TOrcaListState } from '../orcaListParams.ts';
import { OrcaDetailDialog, type OrcaDetailView } from './OrcaDetailDialog.tsx';
import { OrcaFilterPanel } from './OrcaFilterPanel.tsx';
import { OrcaFindingDialog } from './OrcaFindingDialog.tsx';
import { TrashButton } from '../../../components/trash/TrashButton.tsx';

const LIST_DEFAULTS: Partial<TOrcaListState> = { ordering: ORCA_DEFAULT_ORDERING };

export function OrcaList({
  embedded = false,
  title = 'ORCA Exams',
  organizationId,
}: {
  embedded?: boolean;
  title?: string;
  organizationId?: number;
}) {
  const role: TUserType = useSessionUser().user_type;
  const phone = usePhoneLayout();
  const mobileUnderName = useMobileUnderName();
  const { params, setParams } = useListParams(ZOrcaListParams, LIST_DEFAULTS);
  const apiQuery = useMemo(() => toOrcaQuery(params, organizationId), [params, organizationId]);
  const query = useOrcaList(apiQuery);
  const [detail, setDetail] = useState<OrcaDetailView | null>(null);
  const [findingOf, setFindingOf] = useState<number | null>(null);
  const records = useRecordDialogs(role);

  const hasFilters =
    params.search !== '' || params.period !== 'today' || countOrcaFilters(params) > 0 || params.patient !== undefined;
  const withOrganization = showsOrganizationColumn(role, organizationId !== undefined);
  const count = query.data?.count ?? 0;

  const rowActions = (exam: TOrcaRow): RowAction[] =>
    orcaRowActions(exam).map((action) => {
      switch (action) {
        case 'details':
          return {
            label: 'Details',
            icon: <IconEye size={16} />,
            onClick: () => setDetail({ id: exam.id, mode: 'detail' }),
          };
        case 'summary':
          return {
            label: 'Summary',
            icon: <IconClipboardList size={16} />,
            onClick: () => setFindingOf(exam.id),
          };
        case 'report':
          return {
            label: 'Report',
            icon: <IconFileText size={16} />,
            onClick: () => setDetail({ id: exam.id, mode: 'report' }),
          };
      }
    });

  const columns: ListColumn<TOrcaRow>[] = [
    // Cells open their own dialogs (part 3 §2): the patient's, read-only, as from the breast scan list.
    ...examLeadColumns<TOrcaRow>({
      testId: 'orca',
      patientOf: (exam) => exam.patient_data,
      openDetail: (exam) => setDetail({ id: exam.id, mode: 'detail' }),
      openPatient: records.openPatient,
      withOrganization,
      mobileUnderName: mobileUnderName && !phone,
      // On a phone the licence code goes under the name, so the row keeps its scan time beside the actions.
      underName: phone
        ? (exam) => (
            <Text size="xs" c="dimmed" ff="monospace" data-testid={`orca-licence-${exam.id}`}>
              {exam.licence_code ?? '—'}
            </Text>
          )
        : undefined,
    }),
    examTechnicianColumn<TOrcaRow>({
      testId: 'orca',
      openUser: canUser(role, 'user.read') ? records.openUser : undefined,
    }),
    {
      accessor: 'licence_code',
      title: 'Licence code',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {exam.licence_code ?? '—'}
        </Text>
      ),
    },
    {
      accessor: 'date_time',
      title: 'Scan Time',
      sortable: true,
      render: (exam) => <ListDate value={exam.date_time} />,
    },
    {
      accessor: 'created',
      title: 'Synced On',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => <ListDate value={exam.created} />,
    },
  ];

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        testId="orca-list"
        actions={
          <>
            {!embedded && <TrashButton area="exams" />}
            <ListCsvButton
              path="orca/"
              query={apiQuery}
              total={count}
              filename={ORCA_CSV_FILENAME}
              testId="orca-csv"
            />
          </>
        }
        filters={
          <>
            <SearchInput
              placeholder="Search by name, mobile no"
              value={params.search}
              onChange={(search) => setParams({ search })}
              w={{ base: '100%', sm: 280 }}
            />
            <OrcaFilterPanel key={params.device ?? ''} state={params} onChange={setParams} organizationId={organizationId} />
            <PatientFilterChip
              patient={params.patient}
              name={params.patient_name}
              onRemove={() => setParams(CLEARED_PATIENT_FILTER)}
            />
          </>
        }
        period={
          <PeriodTabs
            value={params.period}
            range={{ from: params.from, to: params.to }}
            onChange={(period, range) => setParams({ period, ...range })}
          />
        }
        footer={<ListParamsFooter params={params} setParams={setParams} total={count} />}
      >
        <ListLoadError error={query.error} testId="orca-list-error" />
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={hasFilters ? ORCA_MESSAGES.emptyFiltered : ORCA_MESSAGES.emptyNoFilters}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(exam) => `Actions for ORCA exam ${exam.id}`}
          testId="orca-table"
        />
      </ListPage>
      <OrcaDetailDialog view={detail} onClose={() => setDetail(null)} />
      <OrcaFindingDialog examId={findingOf} onClose={() => setFindingOf(null)} />
      {records.dialogs}
    </>
  );
}
