// The patient list (part 2 §2.5, §6, §8): heading Patients, search by name (500 ms), the time tabs (All Time, Last 30
// Days, Custom Range on the patient's creation date), a gender filter; for ADMIN and SUB_ADMIN a filter panel with a
// count badge (gender, all / unassigned / assigned patients, clear all filters). Columns name, mobile, email, ID,
// technician, organization (not when embedded), created, synced on. Row actions Details (the patient dialog),
// Transfer (by role, part 2 §6) and Delete (ADMIN, with the §8 confirm). Create opens the dialog. Embedded as the
// organization page's Patients tab with that organization fixed.
import { useState } from 'react';
import { Alert, Anchor, Button, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange, IconEye, IconListSearch, IconPlus, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { GENDERS } from '@sc/shared/constants';
import { GENDER_LABELS } from '@sc/shared/labels';
import { PATIENT_MESSAGES, canPatient, patientName, type TPatient } from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { openAlert } from '../../../components/AlertDialog.tsx';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { FilterPopover } from '../../../components/list/FilterPopover.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import { OrganizationCell } from '../../../components/list/ListParts.tsx';
import { patientRecordLinks } from '../../../components/list/PatientFilter.tsx';
import { ListTable, emptyText, type ListColumn, type RowAction } from '../../../components/list/ListTable.tsx';
import { PeriodTabs } from '../../../components/list/PeriodTabs.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { TrashButton } from '../../../components/trash/TrashButton.tsx';
import { periodToQuery } from '../../../components/list/periods.ts';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useDeletePatient, usePatients, type TPatientQuery } from '../patients.api.ts';
import { PatientFormDialog, type PatientFormView } from './PatientFormDialog.tsx';
import { PatientTransferDialog } from './PatientTransferDialog.tsx';


export const ASSIGNMENT_FILTERS = [
  { value: 'all', label: 'All Patients' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'assigned', label: 'Assigned' },
] as const;

export const ZPatientListParams = listParamsSchema({
  gender: z.enum(GENDERS).optional().catch(undefined),
  assigned: z.enum(['all', 'unassigned', 'assigned']).catch('all'),
});
export type TPatientListState = z.infer<typeof ZPatientListParams>;

const LIST_DEFAULTS: Partial<TPatientListState> = { ordering: '-created' };

/** URL state → `GET patient/` parameters. The period filters the patient's creation date. */
export function toPatientQuery(state: TPatientListState, role: TUserType, organizationId?: number): TPatientQuery {
  const admin = canPatient(role, 'patient.adminFilters');
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ...(organizationId === undefined ? {} : { organization_id: organizationId }),
    ...(state.gender ? { gender: state.gender } : {}),
    ...(admin && organizationId === undefined && state.assigned !== 'all' ? { is_organization_id: state.assigned === 'assigned' } : {}),
    ...periodToQuery(state, 'created'),
  };
}

const technicianName = (p: TPatient): string | null =>
  p.technician_data ? `${p.technician_data.first_name} ${p.technician_data.last_name}`.trim() || p.technician_data.username : null;

type PatientListProps = {
  /** Inside an organization page: no title, no organization column, the organization fixed. */
  embedded?: boolean;
  organizationId?: number;
  /** The fixed organization's name (the dialog shows it). */
  organizationName?: string;
  title?: string;
};

export function PatientList({ embedded = false, organizationId, organizationName, title = 'Patients' }: PatientListProps) {
  const user = useSessionUser();
  const role: TUserType = user.user_type;
  const phone = usePhoneLayout();
  const navigate = useNavigate();
  const { params, setParams, hasFilters } = useListParams(ZPatientListParams, LIST_DEFAULTS);
  const query = usePatients(toPatientQuery(params, role, organizationId));
  const remove = useDeletePatient();
  const [form, setForm] = useState<PatientFormView | null>(null);
  const [transferring, setTransferring] = useState<TPatient | null>(null);
  const adminPanel = canPatient(role, 'patient.adminFilters') && !embedded;
  const activeFilters = (params.gender ? 1 : 0) + (params.assigned !== 'all' ? 1 : 0);

  const deletePatient = async (patient: TPatient) => {
    const ok = await confirm({ message: PATIENT_MESSAGES.deleteConfirm(patientName(patient)), confirmLabel: 'Delete', danger: true });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(patient.id);
      notifications.show({ color: 'teal', message: answer.detail || PATIENT_MESSAGES.deleted });
    } catch (error) {
      // Part 2 §8: "Patient delete failure: server error body shown as an alert".
      if (error instanceof ApiError && error.status === 401) return;
      void openAlert({ variant: 'error', title: 'Delete failed', message: errorMessage(error), autoClose: false });
    }
  };

  const rowActions = (patient: TPatient): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setForm({ mode: 'details', patientId: patient.id }) },
    // Issue 23.10: the patient's scans and exams, each list the role may open filtered to this patient.
    ...patientRecordLinks(role, { id: patient.id, name: patientName(patient) }).map((link) => ({
      label: link.label,
      icon: <IconListSearch size={16} />,
      onClick: () => void navigate(link.to),
      testId: `row-action-records-${link.key}`,
    })),
    ...(canPatient(role, 'patient.transfer')
      ? [{ label: 'Transfer', icon: <IconArrowsExchange size={16} />, onClick: () => setTransferring(patient) }]
      : []),
    ...(canPatient(role, 'patient.delete')
      ? [{ label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => void deletePatient(patient) }]
      : []),
  ];

  const columns: ListColumn<TPatient>[] = [
    {
      accessor: 'first_name',
      title: 'Name',
      sortable: true,
      render: (p) => (
        <Stack gap={0} align="flex-start">
          <Anchor component="button" type="button" size="sm" fw={600} ta="left" onClick={() => setForm({ mode: 'details', patientId: p.id })}>
            {patientName(p)}
          </Anchor>
          {/* On a phone the Mobile column goes (name, mobile and created did not fit 390 px): the number stays here. */}
          {phone && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid={`patient-mobile-${p.id}`}>
              {p.mobile ?? '—'}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'mobile',
      title: 'Mobile',
      hideOnPhone: true,
      render: (p) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {p.mobile ?? '—'}
        </Text>
      ),
    },
    { accessor: 'email', title: 'Email', hideOnPhone: true, render: (p) => p.email ?? '—' },
    { accessor: 'id', title: 'ID', sortable: true, hideOnPhone: true },
    { accessor: 'technician', title: 'Technician', hideOnPhone: true, render: (p) => technicianName(p) ?? '—' },
    ...(embedded
      ? []
      : [
          {
            accessor: 'organization',
            title: 'Organization',
            hideOnPhone: true,
            render: (p: TPatient) => <OrganizationCell organization={p.organization_data} />,
          } satisfies ListColumn<TPatient>,
        ]),
    { accessor: 'created', title: 'Created', sortable: true, render: (p) => <ListDate value={p.created} /> },
    {
      accessor: 'synced',
      title: 'Synced On',
      sortable: true,
      hideOnPhone: true,
      render: (p) => (p.synced ? <ListDate value={p.synced} /> : '—'),
    },
  ];

  const genderSelect = (
    <Select
      aria-label="Gender"
      label={adminPanel ? 'Gender' : undefined}
      placeholder="All genders"
      data={GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }))}
      value={params.gender ?? null}
      onChange={(value) => setParams({ gender: (value ?? undefined) as TPatientListState['gender'] })}
      clearable
      w={adminPanel ? '100%' : 150}
      comboboxProps={{ withinPortal: !adminPanel }}
      data-testid="patient-gender-filter"
    />
  );

  const filterPanel = (
    <FilterPopover
      testId="patient-filter"
      count={activeFilters}
      onClear={() => setParams({ gender: undefined, assigned: 'all' })}
      width={400}
    >
      {genderSelect}
      {/* A row of its own: the three choices need the panel's width. */}
      <div style={{ gridColumn: '1 / -1' }}>
        <Text size="sm" fw={500} mb={4} id="patient-assigned-label">
          Patients
        </Text>
        <SegmentedControl
          aria-labelledby="patient-assigned-label"
          fullWidth
          size="xs"
          data={ASSIGNMENT_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
          value={params.assigned}
          onChange={(value) => setParams({ assigned: value as TPatientListState['assigned'] })}
          data-testid="patient-assigned-filter"
        />
      </div>
    </FilterPopover>
  );

  const mayCreate = canPatient(role, 'patient.create');
  const count = query.data?.count ?? 0;
  /** The count is a lower bound: a text search counted SEARCH_COUNT_AHEAD rows past the page and more match. */
  const capped = query.data?.count_capped === true;

  return (
    <>
      <ListPage
        title={title}
        embedded={embedded}
        actions={
          <>
            {!embedded && <TrashButton area="patients" />}
            {mayCreate ? (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ mode: 'create' })} data-testid="patient-create">
                Create
              </Button>
            ) : null}
          </>
        }
        testId="patient-list"
        filters={
          <>
            <SearchInput placeholder="Search by name" value={params.search} onChange={(search) => setParams({ search })} w={{ base: '100%', sm: 260 }} />
            {adminPanel ? filterPanel : genderSelect}
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
            capped={capped}
            onPageChange={(page) => setParams({ page })}
            onLimitChange={(limit) => setParams({ limit })}
          />
        }
      >
        {query.isError && !(query.error instanceof ApiError && query.error.status === 401) && (
          <Alert color="red" variant="light" m="md" data-testid="patient-list-error">
            {errorMessage(query.error)}
          </Alert>
        )}
        <ListTable
          records={query.data?.results}
          columns={columns}
          fetching={query.isFetching}
          emptyText={emptyText('patients', hasFilters)}
          ordering={params.ordering}
          onOrderingChange={(ordering) => setParams({ ordering })}
          rowActions={rowActions}
          rowLabel={(p) => `Actions for ${patientName(p)}`}
          testId="patient-table"
        />
      </ListPage>

      <PatientFormDialog
        opened={form !== null}
        view={form ?? { mode: 'create' }}
        onViewChange={setForm}
        organization={organizationId === undefined ? undefined : { id: organizationId, name: organizationName ?? '' }}
        onClose={() => setForm(null)}
        onTransfer={(patient) => {
          setForm(null);
          setTransferring(patient);
        }}
      />
      <PatientTransferDialog opened={transferring !== null} patient={transferring} onClose={() => setTransferring(null)} />
    </>
  );
}
