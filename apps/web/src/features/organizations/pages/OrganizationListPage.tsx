// Route `organization`: the organization list (part 1 §2.4).
import { OrganizationList } from '../components/OrganizationList.tsx';

export function OrganizationListPage() {
  return <OrganizationList />;
}
