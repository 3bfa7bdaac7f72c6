import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';

// Part 2 §2.2: All Users (?all), Unassigned Users (?unassign), Users otherwise.
export function UserListPage() {
  const [params] = useSearchParams();
  const title = params.has('unassign') ? 'Unassigned Users' : params.has('all') ? 'All Users' : 'Users';
  return <PageHeader title={title} />;
}
