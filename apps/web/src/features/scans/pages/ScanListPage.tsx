import { PageHeader } from '../../../components/PageHeader.tsx';

export function ScanListPage() {
  return <PageHeader title="Scans" />;
}
