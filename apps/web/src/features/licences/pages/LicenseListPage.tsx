import { PageHeader } from '../../../components/PageHeader.tsx';

export function LicenseListPage() {
  return <PageHeader title="License" />;
}
