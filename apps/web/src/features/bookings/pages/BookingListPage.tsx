import { menuLabel } from '../../../app/routeAccess.ts';
import { BookingList } from '../components/BookingList.tsx';

export function BookingListPage() {
  return <BookingList title={menuLabel('booking')} />;
}
