import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function OrcaListPage() {
  return <PageHeader title={menuLabel('orca')} />;
}
