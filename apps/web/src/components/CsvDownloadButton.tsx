// A Download CSV button for a streamed CSV (api/csv.ts): one request with the list's filters; while the rows arrive
// the button shows how many of the expected `total` have come (as a percentage; as the rows received so far when the
// total is only a lower bound), then the file is saved under the server's name (which carries the period), or
// `filename` when the server gives none.
import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { ApiError, errorMessage } from '../api/client.ts';
import { csvProgressLabel, downloadCsv, saveBlob, type CsvProgress } from '../api/csv.ts';

/** The progress of a download whose total is unknown: the rows received so far. */
export const csvRowsLabel = (rows: number): string =>
  rows > 0 ? `Downloading… ${rows} ${rows === 1 ? 'row' : 'rows'}` : 'Downloading…';

type QueryValue = string | number | boolean | undefined | null;

type CsvDownloadButtonProps = {
  /** API path, such as 'scan/' or 'scan/12/'. */
  path: string;
  query: Record<string, QueryValue>;
  /** The rows the file will hold (the list's count; 1 for one record). */
  total: number;
  /**
   * `total` is a lower bound (the list answer's `count_capped`): the file will hold more rows, so the progress shows
   * the rows received so far instead of a percentage of a wrong total.
   */
  capped?: boolean;
  /** The file's name when the server's answer names none. */
  filename: string;
  testId?: string;
  label?: string;
  /** Part 3 §5: disabled while the list is empty (and always while a download runs). */
  disabled?: boolean;
} & Pick<ButtonProps, 'size' | 'variant'>;

export function CsvDownloadButton({
  path,
  query,
  total,
  capped = false,
  filename,
  testId,
  label = 'Download CSV',
  size,
  variant = 'default',
  disabled = false,
}: CsvDownloadButtonProps) {
  const [progress, setProgress] = useState<CsvProgress | null>(null);

  const download = async () => {
    setProgress({ rows: 0, total });
    try {
      const file = await downloadCsv(path, query, total, setProgress);
      saveBlob(file.blob, file.filename ?? filename);
    } catch (error) {
      // A signed-out session is handled by the shell's dialog.
      if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Button
      variant={variant}
      size={size}
      leftSection={<IconDownload size={16} />}
      onClick={() => void download()}
      disabled={disabled || progress !== null}
      data-testid={testId}
    >
      {progress ? (capped ? csvRowsLabel(progress.rows) : csvProgressLabel(progress)) : label}
    </Button>
  );
}
