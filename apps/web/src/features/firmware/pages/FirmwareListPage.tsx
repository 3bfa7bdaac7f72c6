import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function FirmwareListPage() {
  return <PageHeader title={menuLabel('firmware')} />;
}
