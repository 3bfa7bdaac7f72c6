import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function DashboardPage() {
  return <PageHeader title={menuLabel('dashboard')} />;
}
