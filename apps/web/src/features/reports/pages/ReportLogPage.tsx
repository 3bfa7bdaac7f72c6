import { menuLabel } from '../../../app/routeAccess.ts';
import { ReportLogList } from '../components/ReportLogList.tsx';

export function ReportLogPage() {
  return <ReportLogList title={menuLabel('report-log')} />;
}
