// Transfer patient (part 2 §2.6, §5, §6, §8): the patient's name, age and ID; its scan, cervical exam and ORCA exam
// reports (up to 1000 each) in tables of ID, patient name, mobile, serial number, organization, technician, scan
// time and synced on, or 'No reports are available.'; then the pickers by role: ADMIN, SUB_ADMIN, MANAGER and
// DISTRIBUTOR_ADMIN choose the organization then the technician (TECHNICIAN, ORG_ADMIN or DISTRIBUTOR_ADMIN of it);
// an ORG_ADMIN chooses only a technician of its own organization. The reports move with the patient. Server errors
// are listed under the form for 5 s; success 'Patient Transferred Successfully'.
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PATIENT_MESSAGES,
  TRANSFER_TECHNICIAN_TYPES,
  canPatient,
  patientName,
  type TPatient,
  type TPatientReport,
} from '@sc/shared/patients';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { TechnicianPicker } from '../../../components/TechnicianPicker.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { usePatientReports, useTransferPatient } from '../patients.api.ts';

type PatientTransferDialogProps = {
  opened: boolean;
  patient: TPatient | null;
  onClose: (saved: boolean) => void;
};

export function PatientTransferDialog({ opened, patient, onClose }: PatientTransferDialogProps) {
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title="Transfer Patient" size="xl" data-testid="patient-transfer-dialog">
      {opened && patient && <TransferBody key={patient.id} patient={patient} onClose={onClose} />}
    </Modal>
  );
}

const REPORT_TABLES = [
  { key: 'scans', title: 'Scan reports' },
  { key: 'cervical', title: 'Cervical exam reports' },
  { key: 'orca', title: 'ORCA exam reports' },
] as const;

function ReportTable({ rows, testId }: { rows: TPatientReport[]; testId: string }) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table striped withTableBorder fz="sm" miw={760} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Patient name</Table.Th>
            <Table.Th>Mobile</Table.Th>
            <Table.Th>Serial number</Table.Th>
            <Table.Th>Organization</Table.Th>
            <Table.Th>Technician</Table.Th>
            <Table.Th>Scan time</Table.Th>
            <Table.Th>Synced on</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.id}</Table.Td>
              <Table.Td>{r.patient_name}</Table.Td>
              <Table.Td>{r.mobile ?? '—'}</Table.Td>
              <Table.Td>{r.device_serial_number ?? '—'}</Table.Td>
              <Table.Td>{r.organization_name ?? '—'}</Table.Td>
              <Table.Td>{r.technician_name ?? '—'}</Table.Td>
              <Table.Td>
                <ListDate value={r.date_time} />
              </Table.Td>
              <Table.Td>
                <ListDate value={r.created} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function TransferBody({ patient, onClose }: { patient: TPatient; onClose: (saved: boolean) => void }) {
  const user = useSessionUser();
  const role = user.user_type;
  const reports = usePatientReports(patient.id);
  const transfer = useTransferPatient();
  const errorArea = useErrorArea();
  const choosesOrganization = canPatient(role, 'patient.transferOrganization');
  const maySubmit = canPatient(role, 'patient.transfer');
  const [organizationId, setOrganizationId] = useState<number | null>(choosesOrganization ? null : (user.organization ?? null));
  const [technicianId, setTechnicianId] = useState<number | null>(null);
  const ready = technicianId !== null && (organizationId !== null || !choosesOrganization);

  const submit = async () => {
    if (!ready) return;
    try {
      const saved = await transfer.mutateAsync({
        id: patient.id,
        input: choosesOrganization ? { organization_id: organizationId, technician_id: technicianId } : { technician_id: technicianId },
      });
      notifications.show({ color: 'teal', message: saved.detail || PATIENT_MESSAGES.transferred });
      onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      const list = error instanceof ApiError ? fieldErrorList(error.body) : [];
      errorArea.show(list.length ? list : [{ title: 'Error', text: errorMessage(error) }]);
    }
  };

  const all = reports.data;
  const none = all && all.scans.length + all.cervical.length + all.orca.length === 0;

  return (
    <Stack gap="md">
      <Group gap="xl" data-testid="patient-transfer-summary">
        <Text size="sm">
          <Text span c="dimmed">Name: </Text>
          <Text span fw={600}>{patientName(patient)}</Text>
        </Text>
        <Text size="sm">
          <Text span c="dimmed">Age: </Text>
          {patient.age ?? '—'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed">ID: </Text>
          {patient.id}
        </Text>
      </Group>
      {reports.isPending ? (
        <Loader size="sm" />
      ) : reports.isError ? (
        <Alert color="red" variant="light">
          {errorMessage(reports.error)}
        </Alert>
      ) : none ? (
        <Text c="dimmed" data-testid="patient-transfer-no-reports">
          {PATIENT_MESSAGES.noReports}
        </Text>
      ) : (
        REPORT_TABLES.filter((t) => (all?.[t.key].length ?? 0) > 0).map((t) => (
          <Stack key={t.key} gap={4}>
            <Title order={3} size="h5">
              {t.title} ({all?.[t.key].length})
            </Title>
            <ReportTable rows={all?.[t.key] ?? []} testId={`patient-transfer-${t.key}`} />
          </Stack>
        ))
      )}
      <Group grow align="flex-start" wrap="wrap">
        {choosesOrganization && (
          <OrganizationPicker
            value={organizationId}
            onChange={(id) => {
              setOrganizationId(id);
              setTechnicianId(null);
            }}
            testId="patient-transfer-organization"
          />
        )}
        <TechnicianPicker
          organizationId={organizationId}
          userTypes={TRANSFER_TECHNICIAN_TYPES}
          value={technicianId}
          onChange={(id) => setTechnicianId(id)}
          testId="patient-transfer-technician"
        />
      </Group>
      <FormErrorArea errors={errorArea.errors} testId="patient-transfer-errors" />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => onClose(false)} disabled={transfer.isPending}>
          Cancel
        </Button>
        {maySubmit && (
          <Button onClick={() => void submit()} disabled={!ready} loading={transfer.isPending} data-testid="patient-transfer-submit">
            Transfer
          </Button>
        )}
      </Group>
    </Stack>
  );
}
