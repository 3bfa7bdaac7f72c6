// The scan view dialog (part 2 §2.8): Scan Detail (findings per side, device table, the scan's map marker, the
// patient table with Yes/No and "it's sent", the consent form), Report (the embedded report PDF) and, for training
// and practice scans, the Training or Practice Assessment (the assessment file with its result). Download CSV of
// the one scan.
import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Center, Group, List, Loader, Modal, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import dayjs from 'dayjs';
import { ASSESSMENT_RESULT_LABELS, labelOf, scanResultLabel } from '@sc/shared/labels';
import { SCAN_CSV_FILENAME, scanViewTitle, type TScanDetail } from '@sc/shared/scans';
import { errorMessage } from '../../../api/client.ts';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import { formatDateTime } from '../../../components/dateTime.ts';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { ScanLocationMap } from '../map/ScanLocationMap.tsx';
import { useScan } from '../scans.api.ts';
import { StoredFileFrame } from './StoredFileFrame.tsx';
import { FollowUpCasesLink, useCanFollowUp } from '../../follow-up/components/FollowUpCasesLink.tsx';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

export type ScanViewTab = 'detail' | 'report' | 'assessment';
export type ScanView = { id: number; tab: ScanViewTab };

type ScanViewDialogProps = {
  view: ScanView | null;
  onViewChange: (view: ScanView) => void;
  onClose: () => void;
  /** The patient table's name opens the patient dialog, read-only. */
  onOpenPatient?: (patientId: number) => void;
};

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
// The viewer's zone (the console's one date-time helper, which names a zone only when it is another).
const date = (v: string | null | undefined): string => formatDateTime(v);
const day = (v: string | null | undefined): string => (v ? dayjs(v).format('DD MMM YYYY') : '—');
const text = (v: string | number | null | undefined): string => (v === null || v === undefined || v === '' ? '—' : String(v));

export const hasAssessmentView = (scan: Pick<TScanDetail, 'scan_type'>): boolean =>
  scan.scan_type === 'TRAINING' || scan.scan_type === 'PRACTICE';

/** Send report (part 2 §2.8): Yes/No, or "it's sent" once the report went to the patient. */
export const sendReportLabel = (scan: Pick<TScanDetail, 'send_report_to_patient' | 'sent_report_to_patient'>): string =>
  scan.sent_report_to_patient ? "it's sent" : yesNo(scan.send_report_to_patient);

export function ScanViewDialog({ view, onViewChange, onClose, onOpenPatient }: ScanViewDialogProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const scan = useScan(view?.id ?? null);
  const data = scan.data;
  const title = data && view ? scanViewTitle(data.scan_type, view.tab) : 'Scan Detail';

  return (
    <Modal opened={view !== null} onClose={onClose} title={title} size="70rem" fullScreen={phone} data-testid="scan-view-dialog">
      {view &&
        (scan.isError ? (
          <Alert color="red" data-testid="scan-view-error">
            {errorMessage(scan.error)}
          </Alert>
        ) : !data ? (
          <Center h={200}>
            <Loader />
          </Center>
        ) : (
          <Tabs value={view.tab} onChange={(tab) => tab && onViewChange({ id: view.id, tab: tab as ScanViewTab })} keepMounted={false}>
            <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
              <Tabs.List>
                <Tabs.Tab value="detail">Scan Detail</Tabs.Tab>
                <Tabs.Tab value="report">Report</Tabs.Tab>
                {hasAssessmentView(data) && <Tabs.Tab value="assessment">{scanViewTitle(data.scan_type, 'assessment')}</Tabs.Tab>}
              </Tabs.List>
              <Group gap="xs">
                <RecordHistoryButton targetType="scan" targetId={data.id} size="xs" />
                <CsvDownloadButton path={`scan/${data.id}/`} query={{}} total={1} filename={SCAN_CSV_FILENAME} size="xs" testId="scan-view-csv" />
              </Group>
            </Group>
            <Tabs.Panel value="detail">
              <ScanDetailPanel scan={data} onOpenPatient={onOpenPatient} />
            </Tabs.Panel>
            <Tabs.Panel value="report">
              <FilesPanel paths={data.scan_files_path.reports.map((f) => f.path)} title="Report" empty="No report is available for this scan." />
            </Tabs.Panel>
            {hasAssessmentView(data) && (
              <Tabs.Panel value="assessment">
                <Stack gap="sm">
                  <Group gap="xs">
                    <Text size="sm">Assessment result:</Text>
                    <Badge variant="light" tt="none">{labelOf(ASSESSMENT_RESULT_LABELS, data.assessment_result)}</Badge>
                    {data.review && (
                      <Badge variant="light" color={data.review === 'Correct' ? 'teal' : data.review === 'Incorrect' ? 'red' : 'gray'}>
                        {data.review}
                      </Badge>
                    )}
                  </Group>
                  <FilesPanel
                    paths={data.scan_files_path.assessment_files.map((f) => f.path)}
                    title="Assessment file"
                    empty="Unreviewed"
                  />
                </Stack>
              </Tabs.Panel>
            )}
          </Tabs>
        ))}
    </Modal>
  );
}

function FilesPanel({ paths, title, empty }: { paths: string[]; title: string; empty: string }) {
  if (paths.length === 0) {
    return (
      <Text c="dimmed" data-testid="scan-file-none">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {paths.map((path, i) => (
        <StoredFileFrame key={path} path={path} title={paths.length > 1 ? `${title} ${i + 1}` : title} />
      ))}
    </Stack>
  );
}

function FactTable({ rows, testId }: { rows: [string, ReactNode][]; testId: string }) {
  return (
    <Table withTableBorder withColumnBorders striped data-testid={testId} layout="fixed">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w="45%">{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Findings({ label, findings }: { label: string; findings: string[] }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>{label}</Text>
      {findings.length === 0 ? (
        <Text size="sm" c="dimmed">
          No findings
        </Text>
      ) : (
        <List size="sm">
          {findings.map((f) => (
            <List.Item key={f}>{f}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function ScanDetailPanel({ scan, onOpenPatient }: { scan: TScanDetail; onOpenPatient?: (patientId: number) => void }) {
  const patient = scan.patient;
  const followUp = useCanFollowUp();
  const d = scan.device_table;
  const hasPoint = scan.latitude !== null && scan.longitude !== null;
  return (
    <Stack gap="md" data-testid="scan-detail-panel">
      <Group gap="xs">
        <Title order={4}>{scan.display_id}</Title>
        <Badge color={scan.is_positive ? 'red.9' : 'teal.9'}>{scanResultLabel(scan.is_positive)}</Badge>
        {scan.parent && <Badge variant="light" color="gray">Duplicate of {scan.parent.display_id}</Badge>}
        <Text size="sm" c="dimmed">
          {date(scan.date_time)}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Findings label="Left breast" findings={scan.left_breast_finding} />
        <Findings label="Right breast" findings={scan.right_breast_finding} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="xs">
          <Title order={5}>Patient</Title>
          <FactTable
            testId="scan-patient-table"
            rows={[
              [
                'Name',
                patient && onOpenPatient ? (
                  <Anchor component="button" type="button" size="sm" onClick={() => onOpenPatient(patient.id)} data-testid="scan-view-patient">
                    {patient.first_name} {patient.last_name}
                  </Anchor>
                ) : patient ? (
                  `${patient.first_name} ${patient.last_name}`
                ) : (
                  text(scan.first_name)
                ),
              ],
              ['Date joined', day(patient?.created)],
              ['Date of birth', day(patient?.date_of_birth)],
              ['Age', text(patient?.age)],
              ['Next appointment date', day(scan.next_appointment_date)],
              ['Survivor', yesNo(scan.is_survivor)],
              ['Family history', yesNo(scan.has_family_history)],
              ['Symptoms', yesNo(scan.has_symptoms)],
              ['Send report', sendReportLabel(scan)],
              ['Replay available', yesNo(scan.is_replay_available)],
              // Issue 26: the follow-up case this scan opened or joined.
              ...(followUp ? [['Follow-up case', <FollowUpCasesLink key="f" filter={{ scan: scan.id }} />] as [string, ReactNode]] : []),
            ]}
          />
        </Stack>
        <Stack gap="xs">
          <Title order={5}>Device</Title>
          <FactTable
            testId="scan-device-table"
            rows={[
              ['Device serial number', text(d.device_serial_number)],
              ['Hardware version', text(d.hardware_version)],
              ['Software version', text(d.software_version)],
              ['Tablet serial number', text(d.tablet_serial_number)],
              ['Sensor serial number', text(d.sensor_serial_number)],
              ['Mobile model', text(d.mobile_model)],
              ['Manufacturer', text(d.manufacturer)],
              ['OS version', text(d.os_version)],
            ]}
          />
        </Stack>
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={5}>Location</Title>
        {hasPoint ? (
          <ScanLocationMap latitude={scan.latitude!} longitude={scan.longitude!} label={`Scan ${scan.display_id}`} />
        ) : (
          <Text size="sm" c="dimmed">
            No location was recorded with this scan.
          </Text>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={5}>Consent form</Title>
        <FilesPanel paths={scan.scan_files_path.consent_form.map((f) => f.path)} title="Consent form" empty="No consent form was uploaded." />
      </Stack>
    </Stack>
  );
}
