import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function CervaicalListPage() {
  return <PageHeader title={menuLabel('cervaical')} />;
}
