import { PageHeader } from '../../../components/PageHeader.tsx';

export function DeviceListPage() {
  return <PageHeader title="Devices" />;
}
