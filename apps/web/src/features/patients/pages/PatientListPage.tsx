import { PageHeader } from '../../../components/PageHeader.tsx';

export function PatientListPage() {
  return <PageHeader title="Patients" />;
}
