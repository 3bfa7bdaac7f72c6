import { menuLabel } from '../../../app/routeAccess.ts';
import { PatientList } from '../components/PatientList.tsx';

export function PatientListPage() {
  return <PatientList title={menuLabel('patient')} />;
}
