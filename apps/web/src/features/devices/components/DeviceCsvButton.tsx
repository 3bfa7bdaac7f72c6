// Download CSV (part 2 §2.4, §6, §7; SUB_ADMIN and ADMIN): one streamed request for every row the list's filters
// select; the button shows how many of the list's rows have arrived, and the file is saved as device_details.csv.
import { DEVICE_CSV_FILENAME } from '@sc/shared/devices';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton.tsx';
import type { TDeviceQuery } from '../devices.api.ts';

type DeviceCsvButtonProps = {
  query: TDeviceQuery;
  /** The list's count: the rows the file will hold. */
  total: number;
};

export function DeviceCsvButton({ query, total }: DeviceCsvButtonProps) {
  return <CsvDownloadButton path="device/" query={query} total={total} filename={DEVICE_CSV_FILENAME} testId="device-csv" />;
}
