import { PageHeader } from '../../../components/PageHeader.tsx';

export function OrganizationListPage() {
  return <PageHeader title="Organization" />;
}
