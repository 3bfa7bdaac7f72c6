import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReportPage() {
  return <PageHeader title="IBE Scan report" />;
}
