import { menuLabel } from '../../../app/routeAccess.ts';
import { ModuleList } from '../components/ModuleList.tsx';

export function ModuleListPage() {
  return <ModuleList title={menuLabel('tutorial')} />;
}
