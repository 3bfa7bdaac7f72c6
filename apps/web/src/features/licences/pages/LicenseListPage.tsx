import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function LicenseListPage() {
  return <PageHeader title={menuLabel('license')} />;
}
