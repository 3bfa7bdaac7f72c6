// The ORCA detail modal (part 3 §2): titled 'ORCA Detail', or 'Report' in PDF mode. Detail mode shows the Patient,
// Device, Licence and Mobile cards, the exam's map marker and the embedded report and consent form; Report mode
// shows the report file alone. File errors show in red for 3 s (OrcaFileFrame). Built from the list kit's exam
// detail pieces (components/list/ExamDetail.tsx), as the cervical detail modal is.
import { SimpleGrid, Stack } from '@mantine/core';
import { ORCA_MESSAGES, type TOrcaDetail } from '@sc/shared/orca';
import {
  ExamDetailModal,
  ExamFiles,
  ExamLocation,
  ExamReports,
  InfoCard,
  day,
  rowIf,
  text,
  yesNo,
  type ExamDetailView,
} from '../../../components/list/ExamDetail.tsx';
import { fullName } from '../../../components/list/ListParts.tsx';
import { useOrca } from '../orca.api.ts';
import { OrcaFileFrame } from './OrcaFileFrame.tsx';

export type OrcaDetailView = ExamDetailView;

const frame = ({ path, title, height }: { path: string; title: string; height?: number }) => (
  <OrcaFileFrame path={path} title={title} height={height} />
);

export function OrcaDetailDialog({ view, onClose }: { view: OrcaDetailView | null; onClose: () => void }) {
  const exam = useOrca(view?.id ?? null);
  return (
    <ExamDetailModal
      opened={view !== null}
      title={view?.mode === 'report' ? ORCA_MESSAGES.reportTitle : ORCA_MESSAGES.detailTitle}
      onClose={onClose}
      testId="orca-detail-dialog"
      query={exam}
    >
      {(data) =>
        view?.mode === 'report' ? (
          <ExamReports reports={data.file_path.reports} frame={frame} />
        ) : (
          <OrcaDetailBody exam={data} />
        )
      }
    </ExamDetailModal>
  );
}

function OrcaDetailBody({ exam }: { exam: TOrcaDetail }) {
  const p = exam.patient_data;
  const device = exam.metadata.device;
  return (
    <Stack gap="md" data-testid="orca-detail">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <InfoCard
          title="Patient Detail"
          testId="orca-patient-card"
          rows={[
            ['Name', fullName(p) || '—'],
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
            ...rowIf('Tablet serial number', exam.tablet_serial_number),
          ]}
        />
        <InfoCard
          title="Licence Detail"
          testId="orca-licence-card"
          rows={[
            ['Licence code', text(exam.licence_code)],
            ...rowIf('Current report count', exam.current_report_count),
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
      <ExamLocation latitude={exam.latitude} longitude={exam.longitude} label={`ORCA exam ${exam.id}`} />
      <ExamFiles files={exam.file_path} frame={frame} />
    </Stack>
  );
}
