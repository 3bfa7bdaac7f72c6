// The cervical detail modal (part 3 §2 "Cervical scan detail modal"): titled 'Cervaical Detail', or 'Report' in PDF
// mode. Detail mode shows the Patient Detail, Device Detail and Mobile blocks, the reviewers, the exam's map marker
// and the embedded report and consent form; Report mode shows the report file alone.
import type { ReactNode } from 'react';
import { Alert, Card, Center, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import dayjs from 'dayjs';
import { CERVICAL_MESSAGES, type TCervicalDetail } from '@sc/shared/cervical';
import { errorMessage } from '../../../api/client.ts';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { ScanLocationMap } from '../../scans/map/ScanLocationMap.tsx';
import { useCervical } from '../cervical.api.ts';
import { CervicalFile } from './CervicalFile.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';

export type CervicalDetailView = { id: number; mode: 'detail' | 'report' };

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
const day = (v: string | null | undefined): string => (v ? dayjs(v).format('DD MMM YYYY') : '—');
const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined || v === '' ? '—' : String(v);
const person = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '—');

function InfoCard({ title, rows, testId }: { title: string; rows: [string, ReactNode][]; testId: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap={4}>
        {rows.map(([label, value]) => (
          <Text key={label} size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
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

export function CervicalDetailDialog({ view, onClose }: { view: CervicalDetailView | null; onClose: () => void }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const exam = useCervical(view?.id ?? null);
  const title = view?.mode === 'report' ? CERVICAL_MESSAGES.reportTitle : CERVICAL_MESSAGES.detailTitle;
  return (
    <Modal opened={view !== null} onClose={onClose} title={title} size="70rem" fullScreen={phone} data-testid="cervical-detail-dialog">
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
          <DetailBody exam={exam.data} />
        ))}
    </Modal>
  );
}

function ReportFiles({ exam }: { exam: TCervicalDetail }) {
  const reports = exam.file_path.reports;
  if (reports.length === 0) return <Text c="dimmed">No report is available for this exam.</Text>;
  return (
    <Stack gap="md">
      {reports.map((f, i) => (
        <CervicalFile key={f.path} kind="pdf" path={f.path} title={reports.length > 1 ? `Report ${i + 1}` : 'Report'} />
      ))}
    </Stack>
  );
}

function DetailBody({ exam }: { exam: TCervicalDetail }) {
  const p = exam.patient;
  const device = exam.metadata.device;
  return (
    <Stack gap="md" data-testid="cervical-detail">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <InfoCard
          title="Patient Detail"
          testId="cervical-patient-card"
          rows={[
            ['Name', p ? person(p) : '—'],
            ['Patient ID', text(p?.id)],
            ['Mobile', text(p?.mobile)],
            ['Date joined', day(p?.created)],
            ['Date of birth', day(p?.date_of_birth)],
            ['Age', text(p?.age)],
            ['Survivor', yesNo(exam.is_survivor)],
            ['Symptoms', yesNo(exam.has_symptoms)],
            ['Family history', yesNo(exam.has_family_history)],
          ]}
        />
        <InfoCard
          title="Device Detail"
          testId="cervical-device-card"
          rows={[
            ['Device serial number', text(exam.device_serial_number)],
            ['Sensor serial number', text(exam.sensor_serial_number)],
            ['Software version', text(exam.software_version)],
            ['Hardware version', text(exam.hardware_version)],
            ['Tablet serial number', text(exam.tablet_serial_number)],
          ]}
        />
        <InfoCard
          title="Mobile"
          testId="cervical-mobile-card"
          rows={[
            ['Model', text(device.device_model)],
            ['Manufacturer', text(device.manufacturer)],
            ['OS version', text(device.os_version)],
          ]}
        />
        <InfoCard
          title="Review"
          testId="cervical-review-card"
          rows={[
            ['Reviewer 1', <ReviewerStatusBadge key="1" status={exam.reviewer_one_status} who={exam.reviewer_one} />],
            ['Reviewer 2', <ReviewerStatusBadge key="2" status={exam.reviewer_two_status} who={exam.reviewer_two} />],
            ...(exam.adjudication
              ? ([['Final read', <ReviewerStatusBadge key="f" status={exam.adjudication.final_status} who={exam.adjudication.user_data} />]] as [string, ReactNode][])
              : []),
            ['Findings', exam.left_breast_finding.join('; ') || 'No finding'],
            ['Notes', text(exam.notes.message)],
          ]}
        />
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Location
        </Title>
        {exam.latitude !== null && exam.longitude !== null ? (
          <ScanLocationMap latitude={exam.latitude} longitude={exam.longitude} label={`Cervical exam ${exam.id}`} />
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
          exam.file_path.consent_form.map((f) => <CervicalFile key={f.path} kind="pdf" path={f.path} title="Consent form" height={420} />)
        )}
      </Stack>
    </Stack>
  );
}
