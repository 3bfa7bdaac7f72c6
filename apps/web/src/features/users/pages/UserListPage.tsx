import { useSearchParams } from 'react-router';
import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

// Part 2 §2.2: All Users (?all), Unassigned Users (?unassign), Users otherwise; the first two are menu entries.
export function UserListPage() {
  const [params] = useSearchParams();
  const title = params.has('unassign')
    ? menuLabel('user-unassign')
    : params.has('all')
      ? menuLabel('user-all')
      : 'Users';
  return <PageHeader title={title} />;
}
