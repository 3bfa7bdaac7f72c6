import { menuLabel } from '../../../app/routeAccess.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { FollowUpList } from '../components/FollowUpList.tsx';

export function FollowUpPage() {
  return <FollowUpList user={useSessionUser()} title={menuLabel('follow-up')} />;
}
