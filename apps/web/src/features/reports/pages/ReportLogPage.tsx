import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReportLogPage() {
  return <PageHeader title="Report Log" />;
}
