// Route `scan` (part 2 §2.7): the breast scan list with the List/Map toggle, titled as its menu entry (the spec's
// "Scans"; the console's labels are decided once in docs/decisions.md and read through menuLabel).
import { menuLabel } from '../../../app/routeAccess.ts';
import { ScanList } from '../components/ScanList.tsx';

export function ScanListPage() {
  return <ScanList title={menuLabel('scan')} withMapToggle />;
}
