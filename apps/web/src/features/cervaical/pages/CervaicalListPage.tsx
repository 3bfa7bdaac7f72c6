import { PageHeader } from '../../../components/PageHeader.tsx';

export function CervaicalListPage() {
  return <PageHeader title="Cervaical" />;
}
