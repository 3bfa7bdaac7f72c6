import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReCertificationPage() {
  return <PageHeader title="Technician Re-Certification" />;
}
