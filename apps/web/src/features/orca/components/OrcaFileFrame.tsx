// A stored ORCA file (report or consent form PDF) fetched with the session's token through `GET file/?path=` and
// shown in a frame. A file that fails to load shows its error in red for 3 s (part 3 §2, §8), then a quiet note
// that the file is not available, so the reader is not left with an empty space.
import { useEffect, useState } from 'react';
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { ORCA_FILE_ERROR_MS } from '@sc/shared/orca';
import { useFileObjectUrl } from '../../../api/files.ts';

/** True for `ms` after `error` turns non-null. */
export function useTransientError(error: string | null, ms = ORCA_FILE_ERROR_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!error) {
      setShown(false);
      return;
    }
    setShown(true);
    const timer = setTimeout(() => setShown(false), ms);
    return () => clearTimeout(timer);
  }, [error, ms]);
  return shown;
}

export function OrcaFileFrame({
  path,
  title,
  height = 520,
}: {
  path: string;
  title: string;
  height?: number;
}) {
  const file = useFileObjectUrl(path);
  const errorShown = useTransientError(file.error);
  if (file.loading) {
    return (
      <Center h={height / 2}>
        <Loader />
      </Center>
    );
  }
  if (file.error || !file.url) {
    return errorShown ? (
      <Text size="sm" c="red.8" data-testid="orca-file-error">
        {file.error}
      </Text>
    ) : (
      <Text size="sm" c="dimmed" data-testid="orca-file-unavailable">
        {title} is not available.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <iframe
        src={file.url}
        title={title}
        style={{ width: '100%', height, border: 0 }}
        data-testid="orca-file-frame"
      />
      <Anchor href={file.url} target="_blank" size="xs">
        Open {title.toLowerCase()} in a new tab
      </Anchor>
    </Stack>
  );
}
