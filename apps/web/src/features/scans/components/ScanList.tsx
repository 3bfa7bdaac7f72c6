// The breast scan list (part 2 §2.7; issue 8): debounced search, the three time tabs, the filter panel with its
// badge, the `device` link parameter, the §2.7 columns with their links, ID prefixes, row actions by role
// (scanRowActions), both empty states, Download CSV (streamed) and a List/Map toggle. Embeddable in an
// organization (organizationId), in re-certification (technicianId), in a modal for a map cluster (ids) and in the
// duplicates modal (parentScanId); the modal lists keep their state under a URL prefix of their own.
import { useMemo, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsExchange,
  IconCircleCheckFilled,
  IconCircleXFilled,
  IconCopy,
  IconEye,
  IconFileText,
  IconHelpCircle,
  IconPlayerPlay,
  IconPlayerSkipForward,
  IconTrash,
  IconUserCheck,
} from '@tabler/icons-react';
import { ASSESSMENT_RESULTS } from '@sc/shared/constants';
import type { TUserType } from '@sc/shared/roles';
import {
  SCAN_CSV_FILENAME,
  SCAN_DEFAULT_ORDERING,
  SCAN_MESSAGES_CONSOLE,
  canFilterAssigned,
  canSeeDuplicates,
  duplicatesParentId,
  scanReplayPath,
  scanResultLabel,
  scanRowActions,
  showsOrganizationColumn,
  type TScanRow,
} from '@sc/shared/scans';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { CellButton, ListLoadError, organizationColumn } from '../../../components/list/ListParts.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { ListTable, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { CLEARED_PATIENT_FILTER, PatientFilterChip } from '../../../components/list/PatientFilter.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { ScanMapView } from '../map/ScanMapView.tsx';
import { useDeleteScan, useScans, useScansByIds, type TScanFilterQuery } from '../scans.api.ts';
import { ZScanListParams, countActiveFilters, toScanFilterQuery, toScanQuery, type TScanListState } from '../scanListParams.ts';
import { ScanFilterPanel } from './ScanFilterPanel.tsx';
import { ClusterScanListModal, ScanListModal, type ClusterSelection } from './ScanListModal.tsx';
import { useRecordDialogs } from './RecordDialogs.tsx';
import { ScanTransferDialog } from './ScanTransferDialog.tsx';
import { ScanViewDialog, type ScanView } from './ScanViewDialog.tsx';
import { TrashButton } from '../../../components/trash/TrashButton.tsx';
import { canOpenTrash } from '@sc/shared/trash';

const LIST_DEFAULTS: Partial<TScanListState> = { ordering: SCAN_DEFAULT_ORDERING };

export type ScanListProps = {
  /** Inside another page or a modal: no title. */
  embedded?: boolean;
  title?: string;
  /** The organization page's Scans tab: that organization's scans, no organization column. */
  organizationId?: number;
  /** Re-certification: that technician's scans, no technician filter. */
  technicianId?: number;
  /**
   * Inside re-certification: the replay link carries re-certify=true, and training and practice scans show their
   * review (Unreviewed, Correct or Incorrect, part 2 §4) in the Assessment column.
   */
  recertify?: boolean;
  /** Filters this list always applies (re-certification: scan type, replay, period); no search, tabs or panel. */
  fixedQuery?: TScanFilterQuery;
  /** A map marker or cluster: exactly these scans (POST scan/ids/). */
  ids?: readonly number[];
  /** The duplicates modal: the original scan and its duplicates. */
  parentScanId?: number;
  /** URL prefix of this list's state (lists inside modals). */
  prefix?: string;
  /** Show the List/Map toggle (the Scans page and the organization's Scans tab). */
  withMapToggle?: boolean;
  /** Open on the map (route mapreport). */
  mapOnly?: boolean;
};

const ASSESSMENT_ICONS: Record<(typeof ASSESSMENT_RESULTS)[number], { icon: ReactNode; label: string }> = {
  NO_ASSESSMENT: { icon: <IconHelpCircle size={18} color="var(--mantine-color-gray-7)" />, label: 'No assessment' },
  CORRECT: { icon: <IconCircleCheckFilled size={18} color="var(--mantine-color-teal-8)" />, label: 'Correct' },
  INCORRECT: { icon: <IconCircleXFilled size={18} color="var(--mantine-color-red-8)" />, label: 'Incorrect' },
  BYPASS: { icon: <IconPlayerSkipForward size={18} color="var(--mantine-color-orange-8)" />, label: 'Bypass' },
  USER_BYPASS: { icon: <IconUserCheck size={18} color="var(--mantine-color-orange-8)" />, label: 'User bypass' },
};

const fullName = (p: { first_name: string; last_name: string } | null | undefined): string =>
  p ? `${p.first_name} ${p.last_name}`.trim() : '';

export function ScanList({
  embedded = false,
  title = 'Scans',
  organizationId,
  technicianId,
  recertify = false,
  fixedQuery,
  ids,
  parentScanId,
  prefix,
  withMapToggle = false,
  mapOnly = false,
}: ScanListProps) {
  const user = useSessionUser();
  const role: TUserType = user.user_type;
  const phone = usePhoneLayout();
  const { params, setParams } = useListParams(ZScanListParams, LIST_DEFAULTS, { prefix });
  const fixedSet = ids !== undefined || parentScanId !== undefined || fixedQuery !== undefined;
  const mayFilterAssigned = canFilterAssigned(role) && organizationId === undefined && !fixedSet;
  const mayFilterDuplicates = canSeeDuplicates(role) && !fixedSet;
  const apiQuery = useMemo(
    () => ({
      ...toScanQuery(params, { organizationId, technicianId, mayFilterAssigned, mayFilterDuplicates }),
      ...(parentScanId === undefined ? {} : { parent_scan_id: parentScanId }),
      ...fixedQuery,
    }),
    [params, organizationId, technicianId, mayFilterAssigned, mayFilterDuplicates, parentScanId, fixedQuery],
  );
  const view = mapOnly ? 'map' : withMapToggle ? params.view : 'list';
  const byFilters = useScans(apiQuery, ids === undefined && view === 'list');
  const byIds = useScansByIds(ids ?? null, { page: params.page, limit: params.limit, ordering: params.ordering });
  const query = ids === undefined ? byFilters : byIds;
  const remove = useDeleteScan();

  const [viewing, setViewing] = useState<ScanView | null>(null);
  const [transferring, setTransferring] = useState<TScanRow | null>(null);
  const [duplicatesOf, setDuplicatesOf] = useState<number | null>(null);
  const [cluster, setCluster] = useState<ClusterSelection | null>(null);
  // The patient, technician and device cells open their own dialogs (part 2 §2.7); the patient's is read-only here.
  const records = useRecordDialogs(role);

  const activeFilters = countActiveFilters(params);
  const hasFilters =
    !fixedSet && (params.search !== '' || params.period !== 'today' || activeFilters > 0 || params.patient !== undefined);
  const withOrganization = showsOrganizationColumn(role, organizationId !== undefined);

  const deleteDuplicate = async (scan: TScanRow) => {
    const ok = await confirm({ message: SCAN_MESSAGES_CONSOLE.deleteConfirm, confirmLabel: 'Delete', danger: true });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(scan.id);
      notifications.show({ color: 'teal', message: answer.detail || SCAN_MESSAGES_CONSOLE.deleted });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
    }
  };

  const rowActions = (scan: TScanRow): RowAction[] =>
    scanRowActions(role, scan).map((action) => {
      switch (action) {
        case 'details':
          return { label: 'Details', icon: <IconEye size={16} />, onClick: () => setViewing({ id: scan.id, tab: 'detail' }) };
        case 'replay':
          return {
            label: 'Scan replay',
            icon: <IconPlayerPlay size={16} />,
            onClick: () => window.open(scanReplayPath(scan.id, recertify), '_blank', 'noopener'),
          };
        case 'report':
          return { label: 'Report', icon: <IconFileText size={16} />, onClick: () => setViewing({ id: scan.id, tab: 'report' }) };
        case 'assessment':
          return { label: 'Assessment', icon: <IconFileText size={16} />, onClick: () => setViewing({ id: scan.id, tab: 'assessment' }) };
        case 'duplicates':
          return { label: 'Show duplicates', icon: <IconCopy size={16} />, onClick: () => setDuplicatesOf(duplicatesParentId(scan)) };
        case 'delete':
          return { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => void deleteDuplicate(scan) };
        case 'transfer':
          return { label: 'Transfer', icon: <IconArrowsExchange size={16} />, onClick: () => setTransferring(scan) };
      }
    });

  const cellButton = (label: string, onClick: () => void, testId?: string) => (
    <CellButton label={label} onClick={onClick} testId={testId} />
  );
  const result = (scan: TScanRow) => (
    <Badge
      variant="light"
      color={scan.is_positive ? 'red' : 'gray'}
      c={scan.is_positive ? 'red.9' : 'gray.8'}
      tt="none"
      data-testid={`scan-result-${scan.id}`}
    >
      {scanResultLabel(scan.is_positive)}
    </Badge>
  );

  const columns: ListColumn<TScanRow>[] = [
    {
      accessor: 'id',
      title: 'ID',
      sortable: true,
      noWrap: true,
      render: (scan) => (
        <Group gap={4} wrap="nowrap">
          {cellButton(scan.display_id, () => setViewing({ id: scan.id, tab: 'detail' }), `scan-id-${scan.id}`)}
          {scan.parent_scan_id !== null && (
            <Tooltip label={`Duplicate of scan ${scan.parent_scan_id}`}>
              <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
                Duplicate
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    {
      accessor: 'first_name',
      title: 'Patient Name',
      sortable: true,
      render: (scan) => (
        <Stack gap={2} align="flex-start">
          {cellButton(
            fullName(scan.patient) || (scan.first_name ?? ''),
            () => (scan.patient ? records.openPatient(scan.patient.id) : setViewing({ id: scan.id, tab: 'detail' })),
            `scan-patient-${scan.id}`,
          )}
          {/* On a phone the Result column goes: the result stays under the name (the widest cell of the row). */}
          {phone && result(scan)}
        </Stack>
      ),
    },
    // The priorities decide which columns give way when the card is too narrow (ListTable), lowest first.
    {
      accessor: 'mobile',
      title: 'Mobile',
      hideOnPhone: true,
      priority: 2,
      render: (scan) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{scan.patient?.mobile ?? '—'}</Text>,
    },
    {
      accessor: 'device_serial_number',
      title: 'Serial Number',
      sortable: true,
      hideOnPhone: true,
      priority: 3,
      render: (scan) =>
        scan.device_id === null
          ? (scan.device_serial_number ?? '—')
          : cellButton(scan.device_serial_number ?? '', () => scan.device_id !== null && records.openDevice(scan.device_id), `scan-device-${scan.id}`),
    },
    { accessor: 'sensor_serial_number', title: 'Sensor Serial No', sortable: true, hideOnPhone: true, priority: 1, render: (scan) => scan.sensor_serial_number ?? '—' },
    ...(withOrganization ? [{ ...organizationColumn<TScanRow>(), priority: 4 }] : []),
    {
      accessor: 'technician_name',
      title: 'Technician',
      sortable: true,
      hideOnPhone: true,
      priority: 3,
      render: (scan) =>
        cellButton(
          fullName(scan.technician_data),
          () => scan.technician_data && records.openUser(scan.technician_data.id),
          `scan-technician-${scan.id}`,
        ),
    },
    { accessor: 'date_time', title: 'Scan Time', sortable: true, render: (scan) => <ListDate value={scan.date_time} /> },
    // Issue 23.12: the list filters by result, so it shows it (a finding on either side: Positive).
    { accessor: 'is_positive', title: 'Result', hideOnPhone: true, priority: 5, render: result },
    { accessor: 'created', title: 'Synced On', sortable: true, hideOnPhone: true, priority: 1, render: (scan) => <ListDate value={scan.created} /> },
    {
      accessor: 'assessment',
      title: 'Assessment',
      hideOnPhone: true,
      priority: 2,
      render: (scan) => {
        if (scan.scan_type !== 'TRAINING' && scan.scan_type !== 'PRACTICE') return <Text size="sm" c="dimmed">—</Text>;
        if (recertify && scan.review) {
          const color = scan.review === 'Correct' ? 'teal' : scan.review === 'Incorrect' ? 'red' : 'gray';
          return (
            <Badge variant="light" color={color} c={`${color}.9`} data-testid={`scan-review-${scan.id}`}>
              {scan.review}
            </Badge>
          );
        }
        if (scan.scan_files_path.assessment_files.length === 0) {
          return (
            <Badge variant="light" color="gray" data-testid={`scan-unreviewed-${scan.id}`}>
              Unreviewed
            </Badge>
          );
        }
        const result = ASSESSMENT_ICONS[scan.assessment_result];
        return (
          <Tooltip label={`Assessment: ${result.label}`}>
            <ActionIcon
              variant="subtle"
              aria-label={`Assessment: ${result.label}`}
              onClick={() => setViewing({ id: scan.id, tab: 'assessment' })}
              data-testid={`scan-assessment-${scan.id}`}
            >
              {result.icon}
            </ActionIcon>
          </Tooltip>
        );
      },
    },
  ];

  const count = query.data?.count ?? 0;
  /** The count is a lower bound: a text search counted SEARCH_COUNT_AHEAD rows past the page and more match. */
  const capped = query.data?.count_capped === true;
  const csvQuery = toScanFilterQuery(apiQuery);
  const mayDownload = ids === undefined && parentScanId === undefined;

  const toggle = withMapToggle && !mapOnly && (
    <SegmentedControl
      data={[
        { value: 'list', label: 'List' },
        { value: 'map', label: 'Map' },
      ]}
      value={params.view}
      onChange={(v) => setParams({ view: v === 'map' ? 'map' : 'list' })}
      aria-label="List or map"
      data-testid="scan-view-toggle"
    />
  );
  const mayTrash = !embedded && !fixedSet && canOpenTrash(role, 'scans');
  const actions =
    toggle || mayTrash || (mayDownload && view === 'list') ? (
      <>
        {mayTrash && <TrashButton area="scans" />}
        {toggle}
        {mayDownload && view === 'list' && (
          <CsvDownloadButton path="scan/" query={csvQuery} total={count} capped={capped} filename={SCAN_CSV_FILENAME} testId="scan-csv" />
        )}
      </>
    ) : null;

  const idsFailed = ids !== undefined && query.isError;

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        actions={actions}
        testId="scan-list"
        filters={
          fixedSet ? null : (
            <>
              <SearchInput
                placeholder="Search by name, mobile, e-mail or ID"
                value={params.search}
                onChange={(search) => setParams({ search })}
                w={{ base: '100%', sm: 280 }}
              />
              <ScanFilterPanel
                state={params}
                onChange={setParams}
                organizationId={organizationId}
                hideTechnician={technicianId !== undefined}
                showAssigned={mayFilterAssigned}
                showDuplicates={mayFilterDuplicates}
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
          fixedSet ? null : (
            <PeriodTabs value={params.period} range={{ from: params.from, to: params.to }} onChange={(period, range) => setParams({ period, ...range })} />
          )
        }
        footer={
          view === 'list' ? (
            <ListFooter
              page={params.page}
              limit={params.limit}
              total={count}
              capped={capped}
              onPageChange={(page) => setParams({ page })}
              onLimitChange={(limit) => setParams({ limit })}
            />
          ) : null
        }
      >
        {view === 'map' ? (
          <ScanMapView filters={csvQuery} onSelectIds={(ids, total) => setCluster({ ids, total })} />
        ) : (
          <>
            {/* A failed read of ?ids= or a marker's scans is said once, as the empty table's text. */}
            {!idsFailed && <ListLoadError error={query.error} testId="scan-list-error" />}
            <ListTable
              records={idsFailed ? [] : query.data?.results}
              columns={columns}
              fetching={query.isFetching}
              emptyText={
                idsFailed ? SCAN_MESSAGES_CONSOLE.idsLoadFailed : hasFilters ? SCAN_MESSAGES_CONSOLE.emptyFiltered : SCAN_MESSAGES_CONSOLE.emptyNoFilters
              }
              ordering={params.ordering}
              onOrderingChange={(ordering) => setParams({ ordering })}
              rowActions={rowActions}
              rowLabel={(scan) => `Actions for ${scan.display_id}`}
              testId="scan-table"
            />
          </>
        )}
      </ListPage>

      <ScanViewDialog view={viewing} onClose={() => setViewing(null)} onViewChange={setViewing} onOpenPatient={records.openPatient} />
      {records.dialogs}
      <ScanTransferDialog scan={transferring} onClose={() => setTransferring(null)} />
      {canSeeDuplicates(role) && (
        <ScanListModal
          opened={duplicatesOf !== null}
          title="Duplicate scans"
          onClose={() => setDuplicatesOf(null)}
          prefix="dup_"
          listProps={{ parentScanId: duplicatesOf ?? undefined, recertify }}
        />
      )}
      <ClusterScanListModal cluster={cluster} prefix="ids_" onClose={() => setCluster(null)} recertify={recertify} />
    </>
  );
}
