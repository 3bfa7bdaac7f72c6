// A stored cervical file (report or consent PDF, a photo, a video) fetched with the session's token through
// `GET file/?path=`. A file that fails to load shows its error in red for 3 s (part 2 §8 "cervical-style views"),
// then a quiet note that the file is not available.
import { useEffect, useState } from 'react';
import { Anchor, Center, Image, Loader, Stack, Text } from '@mantine/core';
import { useFileObjectUrl } from '../../../api/files.ts';

export const FILE_ERROR_MS = 3000;

export function CervicalFile({
  path,
  title,
  kind,
  height = 520,
}: {
  path: string;
  title: string;
  kind: 'pdf' | 'image' | 'video';
  height?: number;
}) {
  const file = useFileObjectUrl(path);
  const [errorShown, setErrorShown] = useState(false);
  useEffect(() => {
    if (!file.error) return;
    setErrorShown(true);
    const timer = setTimeout(() => setErrorShown(false), FILE_ERROR_MS);
    return () => clearTimeout(timer);
  }, [file.error]);

  if (file.loading) {
    return (
      <Center h={Math.min(height, 240)}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (file.error || !file.url) {
    return errorShown ? (
      <Text size="sm" c="red.8" data-testid="cervical-file-error">
        {file.error}
      </Text>
    ) : (
      <Text size="sm" c="dimmed" data-testid="cervical-file-unavailable">
        {title} is not available.
      </Text>
    );
  }
  if (kind === 'image') {
    return <Image src={file.url} alt={title} radius="sm" mah={height} fit="contain" data-testid="cervical-photo" />;
  }
  if (kind === 'video') {
    return (
      <video
        src={file.url}
        controls
        muted
        playsInline
        aria-label={title}
        style={{ width: '100%', maxHeight: height, borderRadius: 4, background: '#000' }}
        data-testid="cervical-video"
      />
    );
  }
  return (
    <Stack gap={4}>
      <iframe src={file.url} title={title} style={{ width: '100%', height, border: 0 }} data-testid="cervical-file-frame" />
      <Anchor href={file.url} target="_blank" size="xs">
        Open {title.toLowerCase()} in a new tab
      </Anchor>
    </Stack>
  );
}
