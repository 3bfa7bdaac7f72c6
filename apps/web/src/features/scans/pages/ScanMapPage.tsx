import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ScanMapPage() {
  return <PageHeader title={menuLabel('mapreport')} />;
}
