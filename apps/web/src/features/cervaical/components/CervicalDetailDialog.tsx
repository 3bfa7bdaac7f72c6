// The cervical detail modal (part 3 §2 "Cervical scan detail modal"): titled 'Cervaical Detail', or 'Report' in PDF
// mode. Detail mode shows the Patient Detail, Device Detail and Mobile blocks, the reviewers, the exam's map marker
// and the embedded report and consent form; Report mode shows the report file alone. Built from the list kit's
// exam detail pieces (components/list/ExamDetail.tsx), as the ORCA detail modal is.
import { SimpleGrid, Stack } from '@mantine/core';
import { CERVICAL_MESSAGES, type TCervicalDetail } from '@sc/shared/cervical';
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
import { useCervical } from '../cervical.api.ts';
import { CervicalFile } from './CervicalFile.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';

export type CervicalDetailView = ExamDetailView;

const frame = ({ path, title, height }: { path: string; title: string; height?: number }) => (
  <CervicalFile kind="pdf" path={path} title={title} height={height} />
);

export function CervicalDetailDialog({
  view,
  onClose,
}: {
  view: CervicalDetailView | null;
  onClose: () => void;
}) {
  const exam = useCervical(view?.id ?? null);
  return (
    <ExamDetailModal
      opened={view !== null}
      title={view?.mode === 'report' ? CERVICAL_MESSAGES.reportTitle : CERVICAL_MESSAGES.detailTitle}
      onClose={onClose}
      testId="cervical-detail-dialog"
      query={exam}
    >
      {(data) =>
        view?.mode === 'report' ? (
          <ExamReports reports={data.file_path.reports} frame={frame} />
        ) : (
          <DetailBody exam={data} />
        )
      }
    </ExamDetailModal>
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
            ['Name', fullName(p) || '—'],
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
            [
              'Reviewer 1',
              <ReviewerStatusBadge key="1" status={exam.reviewer_one_status} who={exam.reviewer_one} />,
            ],
            [
              'Reviewer 2',
              <ReviewerStatusBadge key="2" status={exam.reviewer_two_status} who={exam.reviewer_two} />,
            ],
            ...rowIf(
              'Final read',
              exam.adjudication && (
                <ReviewerStatusBadge
                  key="f"
                  status={exam.adjudication.final_status}
                  who={exam.adjudication.user_data}
                />
              ),
            ),
            ['Findings', exam.left_breast_finding.join('; ') || 'No finding'],
            ['Notes', text(exam.notes.message)],
          ]}
        />
      </SimpleGrid>
      <ExamLocation latitude={exam.latitude} longitude={exam.longitude} label={`Cervical exam ${exam.id}`} />
      <ExamFiles files={exam.file_path} frame={frame} />
    </Stack>
  );
}
