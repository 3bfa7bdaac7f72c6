// The ORCA detail modal (part 3 §2): titled 'ORCA Detail', or 'Report' in PDF mode. Detail mode shows the Patient,
// Device, Licence and Mobile cards, the exam's map marker and the embedded report and consent form; Report mode
// shows the report file alone. File errors show in red for 3 s (OrcaFileFrame).
import type { ReactNode } from 'react';
import { Alert, Card, Center, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import dayjs from 'dayjs';
import { ORCA_MESSAGES, type TOrcaDetail } from '@sc/shared/orca';
import { errorMessage } from '../../../api/client.ts';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { ScanLocationMap } from '../../scans/map/ScanLocationMap.tsx';
import { useOrca } from '../orca.api.ts';
import { OrcaFileFrame } from './OrcaFileFrame.tsx';

export type OrcaDetailMode = 'detail' | 'report';
export type OrcaDetailView = { id: number; mode: OrcaDetailMode };

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
const day = (v: string | null | undefined): string => (v ? dayjs(v).format('DD MMM YYYY') : '—');
const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined || v === '' ? '—' : String(v);

function InfoCard({ title, rows, testId }: { title: string; rows: [string, ReactNode][]; testId: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap={4}>
        {rows.map(([label, value]) => (
          <Text key={label} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span c="dimmed" size="sm">
              {label}:{' '}
            </Text>
            {value}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}

export function OrcaDetailDialog({ view, onClose }: { view: OrcaDetailView | null; onClose: () => void }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const exam = useOrca(view?.id ?? null);
  const title = view?.mode === 'report' ? ORCA_MESSAGES.reportTitle : ORCA_MESSAGES.detailTitle;
  return (
    <Modal
      opened={view !== null}
      onClose={onClose}
      title={title}
      size="70rem"
      fullScreen={phone}
      data-testid="orca-detail-dialog"
    >
      {view &&
        (exam.isError ? (
          <Alert color="red">{errorMessage(exam.error)}</Alert>
        ) : !exam.data ? (
          <Center h={200}>
            <Loader />
          </Center>
        ) : view.mode === 'report' ? (
          <ReportFiles exam={exam.data} />
        ) : (
          <OrcaDetailBody exam={exam.data} />
        ))}
    </Modal>
  );
}

function ReportFiles({ exam }: { exam: TOrcaDetail }) {
  const reports = exam.file_path.reports;
  if (reports.length === 0) return <Text c="dimmed">No report is available for this exam.</Text>;
  return (
    <Stack gap="md">
      {reports.map((f, i) => (
        <OrcaFileFrame key={f.path} path={f.path} title={reports.length > 1 ? `Report ${i + 1}` : 'Report'} />
      ))}
    </Stack>
  );
}

function OrcaDetailBody({ exam }: { exam: TOrcaDetail }) {
  const p = exam.patient_data;
  const device = exam.metadata.device;
  const name = p ? `${p.first_name} ${p.last_name}`.trim() : '—';
  return (
    <Stack gap="md" data-testid="orca-detail">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <InfoCard
          title="Patient Detail"
          testId="orca-patient-card"
          rows={[
            ['Name', name],
            ['Date joined', day(p?.created)],
            ['Date of birth', day(p?.date_of_birth)],
            ['Age', text(p?.age)],
            ['Survivor', yesNo(exam.is_survivor)],
            ['Symptoms', yesNo(exam.has_symptoms)],
          ]}
        />
        <InfoCard
          title="Device Detail"
          testId="orca-device-card"
          rows={[
            ['Software version', text(exam.software_version)],
            ...(exam.tablet_serial_number
              ? ([['Tablet serial number', exam.tablet_serial_number]] as [string, ReactNode][])
              : []),
          ]}
        />
        <InfoCard
          title="Licence Detail"
          testId="orca-licence-card"
          rows={[
            ['Licence code', text(exam.licence_code)],
            ...(exam.current_report_count !== null
              ? ([['Current report count', exam.current_report_count]] as [string, ReactNode][])
              : []),
          ]}
        />
        <InfoCard
          title="Mobile"
          testId="orca-mobile-card"
          rows={[
            ['Model', text(device?.device_model)],
            ['Manufacturer', text(device?.manufacturer)],
            ['OS version', text(device?.os_version)],
          ]}
        />
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Location
        </Title>
        {exam.latitude !== null && exam.longitude !== null ? (
          <ScanLocationMap
            latitude={exam.latitude}
            longitude={exam.longitude}
            label={`ORCA exam ${exam.id}`}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No location was recorded with this exam.
          </Text>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Report
        </Title>
        <ReportFiles exam={exam} />
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Consent form
        </Title>
        {exam.file_path.consent_form.length === 0 ? (
          <Text size="sm" c="dimmed">
            No consent form was uploaded.
          </Text>
        ) : (
          exam.file_path.consent_form.map((f) => (
            <OrcaFileFrame key={f.path} path={f.path} title="Consent form" height={420} />
          ))
        )}
      </Stack>
    </Stack>
  );
}
