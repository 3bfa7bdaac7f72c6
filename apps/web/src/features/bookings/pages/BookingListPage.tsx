import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function BookingListPage() {
  return <PageHeader title={menuLabel('booking')} />;
}
