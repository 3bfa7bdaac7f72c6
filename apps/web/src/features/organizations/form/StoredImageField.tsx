// An uploaded image of the form (company logo, customized-message QR): preview fetched with the session's
// token, upload (optionally through the crop dialog) and delete.
import { ActionIcon, Box, Center, Group, Image, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { IMAGE_TYPES } from '@sc/shared/constants';
import type { TUploadFolder } from '@sc/shared/files';
import { useFileObjectUrl } from '../../../api/files.ts';
import { FileUploadButton } from '../../../components/FileUploadButton.tsx';

type StoredImageFieldProps = {
  label: string;
  path: string;
  folder: TUploadFolder;
  crop?: boolean;
  error?: string;
  testId: string;
  onChange: (path: string) => void;
};

// Part 1 §5: png, jpeg, jpg, webp.
const ACCEPT = [...IMAGE_TYPES, 'jpeg'] as const;

export function StoredImageField({ label, path, folder, crop, error, testId, onChange }: StoredImageFieldProps) {
  const image = useFileObjectUrl(path || null);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group align="flex-start" gap="md">
        <Box
          w={96}
          h={96}
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
          data-testid={`${testId}-preview`}
        >
          {image.url ? (
            <Image src={image.url} alt={label} w={96} h={96} fit="contain" />
          ) : (
            <Center h="100%">{image.loading ? <Loader size="sm" /> : <IconPhoto size={32} color="var(--mantine-color-gray-5)" />}</Center>
          )}
        </Box>
        <Stack gap={6}>
          <Group gap="xs">
            <FileUploadButton folder={folder} accept={ACCEPT} crop={crop} onUploaded={(f) => onChange(f.path)} data-testid={`${testId}-upload`}>
              {path ? 'Change' : 'Upload'}
            </FileUploadButton>
            {path && (
              <Tooltip label="Delete">
                <ActionIcon variant="light" color="red" size="lg" aria-label={`Delete ${label}`} onClick={() => onChange('')} data-testid={`${testId}-delete`}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            PNG, JPG, JPEG or WEBP{crop ? ', cropped square' : ''}.
          </Text>
          {(error || image.error) && (
            <Text size="xs" c="red">
              {error ?? image.error}
            </Text>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}
