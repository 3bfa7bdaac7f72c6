// A stored scan file (report PDF, consent form, assessment file) fetched with the session's token through
// `GET file/?path=` and shown in a frame from its blob: URL. A failure is shown in place (part 2 §8 logs it only in
// the original; a visible note tells the reader why the frame is empty).
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { useFileObjectUrl } from '../../../api/files.ts';

export function StoredFileFrame({ path, title, height = 560 }: { path: string; title: string; height?: number }) {
  const file = useFileObjectUrl(path);
  if (file.loading) {
    return (
      <Center h={height / 2}>
        <Loader />
      </Center>
    );
  }
  if (file.error || !file.url) {
    return (
      <Text size="sm" c="red.8" data-testid="scan-file-error">
        {title} could not be loaded{file.error ? `: ${file.error}` : '.'}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <iframe src={file.url} title={title} style={{ width: '100%', height, border: 0 }} data-testid="scan-file-frame" />
      <Anchor href={file.url} target="_blank" size="xs">
        Open {title.toLowerCase()} in a new tab
      </Anchor>
    </Stack>
  );
}
