// The two tables of the technician scan modal (part 2 §2.11): the technician (ID, name, mobile, e-mail, issue and
// expiry date, organization) and the counts of the re-certification window (Scan Count, Positive Scan, Positivity
// Rate Count with one decimal, Most Recent Scan).
import { Loader, Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { DATE_DISPLAY_FORMAT } from '@sc/shared/constants';
import type { TTechnicianSummary } from '@sc/shared/scans';
import type { TUserDetail } from '@sc/shared/users';
import { fullName } from '../userAccess.ts';
import { formatCertificateDate } from './CertificateDate.tsx';

function Rows({ rows, testId }: { rows: [string, string][]; testId: string }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={170}>{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

type TechnicianDetailTablesProps = {
  user: TUserDetail;
  summary: TTechnicianSummary | undefined;
  summaryLoading: boolean;
  summaryError: string | null;
  /** The window the counts read, for the heading. */
  window: { date_time_after: string; date_time_before: string } | null;
};

export function TechnicianDetailTables({ user, summary, summaryLoading, summaryError, window }: TechnicianDetailTablesProps) {
  const details: [string, string][] = [
    ['ID', String(user.id)],
    ['Technician Name', fullName(user)],
    ['Mobile', user.mobile ?? '—'],
    ['E-mail', user.email ?? '—'],
    ['Issue Date', formatCertificateDate(user.certificate_issue_date)],
    ['Expiry Date', formatCertificateDate(user.certificate_expiry_date)],
    ['Organization', user.organization_data?.name ?? '—'],
  ];
  const counts: [string, string][] = summary
    ? [
        ['Scan Count', String(summary.scans_in_data_range_count)],
        ['Positive Scan', String(summary.positive_scans_in_data_range_count)],
        ['Positivity Rate Count', `${summary.positivity_rate_in_data_range_count.toFixed(1)}%`],
        ['Most Recent Scan', summary.most_recent_scan_date ? dayjs(summary.most_recent_scan_date).format(DATE_DISPLAY_FORMAT) : '—'],
      ]
    : [];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Rows rows={details} testId="technician-details" />
      <Paper>
        <Title order={3} size="h5" mb={6}>
          {window
            ? `Scans from ${formatCertificateDate(window.date_time_after)} to ${formatCertificateDate(window.date_time_before)}`
            : 'All scans'}
        </Title>
        {summaryError ? (
          <Text c="red.9" size="sm" data-testid="technician-summary-error">
            {summaryError}
          </Text>
        ) : summaryLoading || !summary ? (
          <Loader size="sm" aria-label="Loading the counts" />
        ) : (
          <Rows rows={counts} testId="technician-summary" />
        )}
      </Paper>
    </SimpleGrid>
  );
}
