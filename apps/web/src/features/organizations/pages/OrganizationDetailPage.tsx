import { PageHeader } from '../../../components/PageHeader.tsx';

export function OrganizationDetailPage() {
  return <PageHeader title="Organization" />;
}
