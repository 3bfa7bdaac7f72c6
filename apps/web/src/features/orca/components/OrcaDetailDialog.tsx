// The ORCA detail modal (part 3 §2): titled 'ORCA Detail', or 'Report' in PDF mode. Detail mode shows the Patient,
// Device, Licence and Mobile cards, the exam's map marker and the embedded report and consent form; Report mode
// shows the report file alone. File errors show in red for 3 s (OrcaFileFrame). The modal is the list kit's
// ExamDetailDialog (components/list/ExamDetail.tsx), as the cervical one is; the cards are ORCA's.
import { ORCA_MESSAGES, type TOrcaDetail } from '@sc/shared/orca';
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
import { useOrca } from '../orca.api.ts';
import { OrcaFileFrame } from './OrcaFileFrame.tsx';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

export type OrcaDetailView = ExamDetailView;

const TITLES = { detail: ORCA_MESSAGES.detailTitle, report: ORCA_MESSAGES.reportTitle };

const frame = ({ path, title, height }: { path: string; title: string; height?: number }) => (
  <OrcaFileFrame path={path} title={title} height={height} />
);

export function OrcaDetailDialog({ view, onClose }: { view: OrcaDetailView | null; onClose: () => void }) {
  const exam = useOrca(view?.id ?? null);
  return (
    <ExamDetailDialog
      view={view}
      onClose={onClose}
      query={exam}
      titles={TITLES}
      testId="orca-detail"
      frame={frame}
      examLabel="ORCA exam"
      cards={(data) => <OrcaCards exam={data} />}
      actions={(data) => <RecordHistoryButton targetType="orca_exam" targetId={data.id} />}
    />
  );
}

function OrcaCards({ exam }: { exam: TOrcaDetail }) {
  const p = exam.patient_data;
  const followUp = useCanFollowUp();
  return (
    <>
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
          // Issue 26: the follow-up case this exam opened or joined.
          ...(followUp ? [['Follow-up case', <FollowUpCasesLink key="f" filter={{ orca_exam: exam.id }} />] satisfies InfoRow] : []),
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
      <MobileCard device={exam.metadata.device} testId="orca-mobile-card" />
    </>
  );
}
