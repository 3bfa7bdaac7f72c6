import { menuLabel } from '../../../app/routeAccess.ts';
import { FirmwareList } from '../components/FirmwareList.tsx';

export function FirmwareListPage() {
  return <FirmwareList title={menuLabel('firmware')} />;
}
