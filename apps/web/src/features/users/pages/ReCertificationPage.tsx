import { menuLabel } from '../../../app/routeAccess.ts';
import { ReCertificationList } from '../recertification/ReCertificationList.tsx';

export function ReCertificationPage() {
  return <ReCertificationList title={menuLabel('re-certification')} />;
}
