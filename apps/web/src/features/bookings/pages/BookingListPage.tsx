import { PageHeader } from '../../../components/PageHeader.tsx';

export function BookingListPage() {
  return <PageHeader title="Booking" />;
}
