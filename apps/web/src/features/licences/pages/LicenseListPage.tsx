import { menuLabel } from '../../../app/routeAccess.ts';
import { LicenceList } from '../components/LicenceList.tsx';

export function LicenseListPage() {
  return <LicenceList title={menuLabel('license')} />;
}
