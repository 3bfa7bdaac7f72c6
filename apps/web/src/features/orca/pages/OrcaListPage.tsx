import { PageHeader } from '../../../components/PageHeader.tsx';

export function OrcaListPage() {
  return <PageHeader title="ORCA" />;
}
