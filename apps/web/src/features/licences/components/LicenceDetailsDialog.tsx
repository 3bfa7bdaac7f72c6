// License Details (part 3 §2): the licence's ID, Organization, License Key, Pin, Application, Available and Total
// License Count, then the 'License Logs' table (No, Before Count, After Count, Created At, Created By), newest
// first, paged with the list footer (page size, "{n} items", pager) so every row can be reached; 'No license logs
// found!' when it has none.
import { useState, type ReactNode } from 'react';
import { Alert, Loader, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { LICENCE_MESSAGES, type TLicence } from '@sc/shared/licences';
import { errorMessage } from '../../../api/client.ts';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListParamsFooter } from '../../../components/list/ListParts.tsx';
import { LICENCE_LOG_LIMIT, useLicence, useLicenceLog } from '../licences.api.ts';

type LicenceDetailsDialogProps = { licenceId: number | undefined; onClose: () => void };

export function LicenceDetailsDialog({ licenceId, onClose }: LicenceDetailsDialogProps) {
  return (
    <Modal
      opened={licenceId !== undefined}
      onClose={onClose}
      title="License Details"
      size="lg"
      data-testid="licence-details-dialog"
    >
      {licenceId !== undefined && <LicenceDetailsBody id={licenceId} />}
    </Modal>
  );
}

function LicenceDetailsBody({ id }: { id: number }) {
  const licence = useLicence(id);
  const [paging, setPaging] = useState({ page: 1, limit: LICENCE_LOG_LIMIT });
  const log = useLicenceLog(id, paging.page, paging.limit);
  // A new page size starts again at page 1 (as every list's footer does).
  const changePaging = (patch: Partial<typeof paging>) =>
    setPaging((current) => ({ ...current, page: 1, ...patch }));
  const first = (paging.page - 1) * paging.limit;
  if (licence.isPending) return <Loader size="sm" data-testid="licence-details-loading" />;
  if (!licence.data)
    return <Alert color="red">{licence.error ? errorMessage(licence.error) : 'Not found.'}</Alert>;
  return (
    <Stack gap="md">
      <LicenceFacts licence={licence.data} />
      <Title order={3} size="h5">
        License Logs
      </Title>
      {log.isPending ? (
        <Loader size="sm" />
      ) : (log.data?.results.length ?? 0) === 0 ? (
        <Text size="sm" c="dimmed" data-testid="licence-log-empty">
          {log.error ? errorMessage(log.error) : LICENCE_MESSAGES.noLogs}
        </Text>
      ) : (
        <Stack gap={0}>
          <ScrollArea.Autosize mah={320} type="auto">
            <Table striped withTableBorder data-testid="licence-log-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>No</Table.Th>
                  <Table.Th ta="right">Before Count</Table.Th>
                  <Table.Th ta="right">After Count</Table.Th>
                  <Table.Th>Created At</Table.Th>
                  <Table.Th>Created By</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data?.results.map((row, index) => (
                  <Table.Tr key={row.id} data-testid="licence-log-row">
                    <Table.Td>{first + index + 1}</Table.Td>
                    <Table.Td ta="right">{row.before_count}</Table.Td>
                    <Table.Td ta="right">{row.after_count}</Table.Td>
                    <Table.Td>
                      <ListDate value={row.renewal_datetime} />
                    </Table.Td>
                    <Table.Td>{row.renewed_by_name ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <ListParamsFooter params={paging} setParams={changePaging} total={log.data?.count ?? 0} />
        </Stack>
      )}
    </Stack>
  );
}

function LicenceFacts({ licence }: { licence: TLicence }) {
  const rows: [string, ReactNode][] = [
    ['ID', licence.id],
    ['Organization', licence.organization.name],
    [
      'License Key',
      <Text key="k" ff="monospace" size="sm">
        {licence.license_code}
      </Text>,
    ],
    [
      'Pin',
      <Text key="p" ff="monospace" size="sm">
        {licence.pin}
      </Text>,
    ],
    ['Application', licence.application],
    ['Available License Count', licence.count],
    ['Total License Count', licence.total_license_count],
    ['Status', licence.is_active ? 'Active' : 'Inactive'],
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={4} data-testid="licence-facts">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 130, xs: 190 }} fw={500} c="dimmed">
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
