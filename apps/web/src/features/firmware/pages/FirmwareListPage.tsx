import { PageHeader } from '../../../components/PageHeader.tsx';

export function FirmwareListPage() {
  return <PageHeader title="Firmware" />;
}
