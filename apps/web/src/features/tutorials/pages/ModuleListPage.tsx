import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ModuleListPage() {
  return <PageHeader title={menuLabel('tutorial')} />;
}
