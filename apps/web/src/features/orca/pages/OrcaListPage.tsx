// Route `orca` (part 3 §2): the ORCA exam list, titled as its menu entry (docs/decisions.md, "Labels").
import { menuLabel } from '../../../app/routeAccess.ts';
import { OrcaList } from '../components/OrcaList.tsx';

export function OrcaListPage() {
  return <OrcaList title={menuLabel('orca')} />;
}
