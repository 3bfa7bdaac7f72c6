import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReportLogPage() {
  return <PageHeader title={menuLabel('report-log')} />;
}
