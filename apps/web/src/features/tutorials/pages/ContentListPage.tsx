import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function ContentListPage() {
  return <PageHeader title={`${menuLabel('tutorial')} – Content`} />;
}
