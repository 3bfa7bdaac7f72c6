import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ScanListPage() {
  return <PageHeader title={menuLabel('scan')} />;
}
