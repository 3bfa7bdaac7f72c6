import { menuLabel } from '../../../app/routeAccess.ts';
import { DeviceList } from '../components/DeviceList.tsx';

// Route `device` (part 2 §2.4): the page's title is its menu entry's label (docs/decisions.md, "Labels").
export function DeviceListPage() {
  return <DeviceList title={menuLabel('device')} />;
}
