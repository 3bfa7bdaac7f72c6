import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReportPage() {
  return <PageHeader title={menuLabel('report')} />;
}
