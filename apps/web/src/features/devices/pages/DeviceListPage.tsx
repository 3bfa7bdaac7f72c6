import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function DeviceListPage() {
  return <PageHeader title={menuLabel('device')} />;
}
