import { useSearchParams } from 'react-router';
import { menuLabel } from '../../../app/routeAccess.ts';
import { UserList } from '../components/UserList.tsx';

// Route `user` (part 2 §2.2): Unassigned Users with `?unassign`, All Users otherwise (`?all`, the menu's entry; a
// bare `user` is the same view). Titles are the menu entries' labels (docs/decisions.md, "Labels"). The third title,
// Users, is the organization page's tab, where the same list is embedded.
export function UserListPage() {
  const [params] = useSearchParams();
  const unassign = params.has('unassign');
  // Keyed by the view: switching between the two menu entries starts a fresh list.
  return unassign ? (
    <UserList key="unassign" mode="unassign" title={menuLabel('user-unassign')} />
  ) : (
    <UserList key="all" mode="all" title={menuLabel('user-all')} />
  );
}
