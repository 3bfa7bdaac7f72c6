import { PageHeader } from '../../../components/PageHeader.tsx';

export function ScanMapPage() {
  return <PageHeader title="Scans" />;
}
