import { menuLabel } from '../../../app/routeAccess.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { AuditList } from '../components/AuditList.tsx';

export function AuditPage() {
  return <AuditList user={useSessionUser()} title={menuLabel('audit')} />;
}
