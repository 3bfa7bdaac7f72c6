// Route `mapreport` (part 2 §2.7 Map): every scan the filters select on the clustered map.
import { menuLabel } from '../../../app/routeAccess.ts';
import { ScanList } from '../components/ScanList.tsx';

export function ScanMapPage() {
  return <ScanList title={menuLabel('mapreport')} mapOnly />;
}
