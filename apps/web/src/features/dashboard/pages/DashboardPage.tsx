import { PageHeader } from '../../../components/PageHeader.tsx';

export function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
