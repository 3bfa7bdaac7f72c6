// The scan transfer dialog (part 2 §2.9): a summary row of the scan, the organization picker, then the technician
// picker (users of that organization); Update is enabled only with both, and answers 'Scan Transferred Successfully'.
// An ORG_ADMIN's organization is its own (the API refuses any other).
import { useState } from 'react';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SCAN_MESSAGES_CONSOLE, SCAN_TECHNICIAN_TYPES, type TScanRow } from '@sc/shared/scans';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { TechnicianPicker, technicianOptionLabel } from '../../../components/TechnicianPicker.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { useTransferScan } from '../scans.api.ts';

type ScanTransferDialogProps = { scan: TScanRow | null; onClose: () => void };

export function ScanTransferDialog({ scan, onClose }: ScanTransferDialogProps) {
  return (
    <Modal opened={scan !== null} onClose={onClose} title="Transfer Scan" size="lg" data-testid="scan-transfer-dialog">
      {scan && <TransferBody scan={scan} onClose={onClose} />}
    </Modal>
  );
}

function TransferBody({ scan, onClose }: { scan: TScanRow; onClose: () => void }) {
  const user = useSessionUser();
  const ownOnly = user.user_type === 'ORG_ADMIN';
  const [organization, setOrganization] = useState<{ id: number; name: string } | null>(
    ownOnly && user.organization_data ? { id: user.organization_data.id, name: user.organization_data.name } : null,
  );
  const [technician, setTechnician] = useState<{ id: number; label: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const transfer = useTransferScan();

  const submit = async () => {
    if (!organization || !technician) return;
    setError(null);
    try {
      const saved = await transfer.mutateAsync({ id: scan.id, input: { organization_id: organization.id, technician_id: technician.id } });
      notifications.show({ color: 'teal', message: saved.detail || SCAN_MESSAGES_CONSOLE.transferred });
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(errorMessage(e));
    }
  };

  return (
    <Stack gap="md">
      <Table withTableBorder data-testid="scan-transfer-summary">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Patient</Table.Th>
            <Table.Th>Organization</Table.Th>
            <Table.Th>Technician</Table.Th>
            <Table.Th>Scan Time</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{scan.display_id}</Table.Td>
            <Table.Td>{scan.patient ? `${scan.patient.first_name} ${scan.patient.last_name}` : (scan.first_name ?? '—')}</Table.Td>
            <Table.Td>{scan.organization_data?.name ?? '—'}</Table.Td>
            <Table.Td>{scan.technician_data ? `${scan.technician_data.first_name} ${scan.technician_data.last_name}` : '—'}</Table.Td>
            <Table.Td>
              <ListDate value={scan.date_time} />
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <OrganizationPicker
        label="Organization"
        withAsterisk
        value={organization?.id ?? null}
        valueLabel={organization?.name}
        readOnly={ownOnly}
        onChange={(id, picked) => {
          setOrganization(id && picked ? { id, name: picked.name } : null);
          setTechnician(null);
        }}
        testId="scan-transfer-organization"
      />
      <TechnicianPicker
        key={organization?.id ?? 'none'}
        organizationId={organization?.id ?? null}
        userTypes={SCAN_TECHNICIAN_TYPES}
        value={technician?.id ?? null}
        valueLabel={technician?.label}
        onChange={(id, picked) => setTechnician(id && picked ? { id, label: technicianOptionLabel(picked) } : null)}
        testId="scan-transfer-technician"
      />
      {error && (
        <Text c="red.8" size="sm" data-testid="scan-transfer-error">
          {error}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} disabled={!organization || !technician} loading={transfer.isPending} data-testid="scan-transfer-submit">
          Update
        </Button>
      </Group>
    </Stack>
  );
}
