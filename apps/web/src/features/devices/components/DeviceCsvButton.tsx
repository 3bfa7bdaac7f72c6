// Download CSV (part 2 §2.4, §6, §7; SUB_ADMIN and ADMIN): one streamed request for every row the list's filters
// select; the button shows how many of the list's rows have arrived, and the file is saved as device_details.csv.
import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { DEVICE_CSV_FILENAME } from '@sc/shared/devices';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { downloadDevicesCsv, type CsvProgress, type TDeviceQuery } from '../devices.api.ts';

type DeviceCsvButtonProps = {
  query: TDeviceQuery;
  /** The list's count: the rows the file will hold. */
  total: number;
};

export const csvProgressLabel = ({ rows, total }: CsvProgress): string =>
  total > 0 ? `Downloading ${Math.min(100, Math.round((rows / total) * 100))}%` : 'Downloading…';

export function DeviceCsvButton({ query, total }: DeviceCsvButtonProps) {
  const [progress, setProgress] = useState<CsvProgress | null>(null);

  const download = async () => {
    setProgress({ rows: 0, total });
    try {
      const blob = await downloadDevicesCsv(query, total, setProgress);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = DEVICE_CSV_FILENAME;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      onClick={() => void download()}
      disabled={progress !== null}
      data-testid="device-csv"
    >
      {progress ? csvProgressLabel(progress) : 'Download CSV'}
    </Button>
  );
}
