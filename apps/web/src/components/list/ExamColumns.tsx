// The columns the cervical and ORCA exam lists share (part 3 §2: the ORCA list has "the same layout as the cervical
// list"): ID (opens the exam's detail), Patient Name (the patient's dialog; the exam's detail without a patient or
// the right to read one), Mobile, Organization (where the role sees it, outside an organization) and the Technician
// cell. Each list adds its own columns (the reviewers; the licence code) and its own date cells.
import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CellButton, fullName, organizationColumn } from './ListParts.tsx';
import type { ListColumn } from './ListTable.tsx';

type ExamPerson = { id: number; first_name: string; last_name: string };

/**
 * A desktop narrower than this (beside the menu) has no room for the Mobile column: with it the cervical list was
 * 1215 px in a 1114 px card at 1440 and Reviewer 2 sat under the pinned actions. There the mobile goes under the name.
 */
export const EXAM_MOBILE_UNDER_NAME_QUERY = '(max-width: 1599px)';

export function useMobileUnderName(): boolean {
  return useMediaQuery(EXAM_MOBILE_UNDER_NAME_QUERY, false, { getInitialValueInEffect: false });
}
type ExamRow = { id: number; organization_data: { id: number; name: string } | null };

/** ID, Patient Name, Mobile and (when `withOrganization`) Organization. testids `<testId>-id-<id>`, `-patient-<id>`. */
export function examLeadColumns<T extends ExamRow>({
  testId,
  patientOf,
  openDetail,
  openPatient,
  withOrganization,
  underName,
  mobileUnderName = false,
}: {
  testId: string;
  patientOf: (exam: T) => (ExamPerson & { mobile: string | null }) | null;
  openDetail: (exam: T) => void;
  /** Undefined: a role that may not read patients; the name opens the exam's detail. */
  openPatient: ((patientId: number) => void) | undefined;
  withOrganization: boolean;
  /** Under the name (a phone's stand-in for a column it leaves out). */
  underName?: (exam: T) => ReactNode;
  /** `useMobileUnderName()` off a phone: the mobile goes under the name instead of a column of its own. */
  mobileUnderName?: boolean;
}): ListColumn<T>[] {
  const mobileLine = (exam: T) => (
    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid={`${testId}-mobile-${exam.id}`}>
      {patientOf(exam)?.mobile ?? '—'}
    </Text>
  );
  return [
    {
      accessor: 'id',
      title: 'ID',
      sortable: true,
      hideOnPhone: true,
      render: (exam) => (
        <CellButton label={String(exam.id)} onClick={() => openDetail(exam)} testId={`${testId}-id-${exam.id}`} />
      ),
    },
    {
      accessor: 'first_name',
      title: 'Patient Name',
      sortable: true,
      render: (exam) => {
        const patient = patientOf(exam);
        const name = (
          <CellButton
            label={fullName(patient) || '—'}
            onClick={() => (patient && openPatient ? openPatient(patient.id) : openDetail(exam))}
            testId={`${testId}-patient-${exam.id}`}
          />
        );
        const under = underName?.(exam);
        return under || mobileUnderName ? (
          <Stack gap={0} align="flex-start">
            {name}
            {mobileUnderName && mobileLine(exam)}
            {under}
          </Stack>
        ) : (
          name
        );
      },
    },
    ...(mobileUnderName
      ? []
      : [
          {
            accessor: 'mobile',
            title: 'Mobile',
            hideOnPhone: true,
            render: (exam: T) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {patientOf(exam)?.mobile ?? '—'}
              </Text>
            ),
          } satisfies ListColumn<T>,
        ]),
    ...(withOrganization ? [organizationColumn<T>()] : []),
  ];
}

/**
 * The Technician column (sorted by technician_name): the technician opens the user's dialog for a role that may
 * read users, else their name is text; `below` adds a line under it (the cervical list's device). testid
 * `<testId>-technician-<id>`.
 */
export function examTechnicianColumn<T extends { id: number; technician_data: ExamPerson | null }>({
  testId,
  nameOf,
  openUser,
  below,
}: {
  testId: string;
  /** The stored name, for an exam whose technician's account is gone. */
  nameOf?: (exam: T) => string | null;
  /** Undefined: a role that may not read users. */
  openUser: ((userId: number) => void) | undefined;
  below?: (exam: T) => ReactNode;
}): ListColumn<T> {
  const technician = (exam: T) => {
    const user = exam.technician_data;
    const name = fullName(user) || nameOf?.(exam) || '';
    if (user && openUser) {
      return <CellButton label={name} onClick={() => openUser(user.id)} testId={`${testId}-technician-${exam.id}`} />;
    }
    return <Text size="sm">{name || '—'}</Text>;
  };
  return {
    accessor: 'technician_name',
    title: 'Technician',
    sortable: true,
    hideOnPhone: true,
    render: (exam) =>
      below ? (
        <Stack gap={0} align="flex-start">
          {technician(exam)}
          {below(exam)}
        </Stack>
      ) : (
        technician(exam)
      ),
  };
}
