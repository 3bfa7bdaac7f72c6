import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ReCertificationPage() {
  return <PageHeader title={menuLabel('re-certification')} />;
}
