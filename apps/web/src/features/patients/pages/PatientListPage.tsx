import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function PatientListPage() {
  return <PageHeader title={menuLabel('patient')} />;
}
