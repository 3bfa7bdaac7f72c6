// The cervical detail modal (part 3 §2 "Cervical scan detail modal"): titled 'Cervaical Detail', or 'Report' in PDF
// mode. Detail mode shows the Patient Detail, Device Detail and Mobile blocks, the reviewers, the exam's map marker
// and the embedded report and consent form; Report mode shows the report file alone. The modal is the list kit's
// ExamDetailDialog (components/list/ExamDetail.tsx), as the ORCA one is; the cards are the cervical exam's.
import { CERVICAL_MESSAGES, type TCervicalDetail } from '@sc/shared/cervical';
import {
  ExamDetailDialog,
  InfoCard,
  type InfoRow,
  MobileCard,
  day,
  rowIf,
  text,
  yesNo,
  type ExamDetailView,
} from '../../../components/list/ExamDetail.tsx';
import { fullName } from '../../../components/list/ListParts.tsx';
import { FollowUpCasesLink, useCanFollowUp } from '../../follow-up/components/FollowUpCasesLink.tsx';
import { useCervical } from '../cervical.api.ts';
import { CervicalFile } from './CervicalFile.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

export type CervicalDetailView = ExamDetailView;

const TITLES = { detail: CERVICAL_MESSAGES.detailTitle, report: CERVICAL_MESSAGES.reportTitle };

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
    <ExamDetailDialog
      view={view}
      onClose={onClose}
      query={exam}
      titles={TITLES}
      testId="cervical-detail"
      frame={frame}
      examLabel="Cervical exam"
      cards={(data) => <CervicalCards exam={data} />}
      actions={(data) => <RecordHistoryButton targetType="cervical_exam" targetId={data.id} />}
    />
  );
}

function CervicalCards({ exam }: { exam: TCervicalDetail }) {
  const p = exam.patient;
  const followUp = useCanFollowUp();
  return (
    <>
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
          // Issue 26: the follow-up case this exam opened or joined.
          ...(followUp ? [['Follow-up case', <FollowUpCasesLink key="f" filter={{ cervical_exam: exam.id }} />] satisfies InfoRow] : []),
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
      <MobileCard device={exam.metadata.device} testId="cervical-mobile-card" />
      <InfoCard
        title="Review"
        testId="cervical-review-card"
        rows={[
          ['Reviewer 1', <ReviewerStatusBadge key="1" status={exam.reviewer_one_status} who={exam.reviewer_one} />],
          ['Reviewer 2', <ReviewerStatusBadge key="2" status={exam.reviewer_two_status} who={exam.reviewer_two} />],
          ...rowIf(
            'Final read',
            exam.adjudication && (
              <ReviewerStatusBadge key="f" status={exam.adjudication.final_status} who={exam.adjudication.user_data} />
            ),
          ),
          ['Findings', exam.left_breast_finding.join('; ') || 'No finding'],
          ['Notes', text(exam.notes.message)],
        ]}
      />
    </>
  );
}
