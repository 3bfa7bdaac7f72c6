// A button that picks a file, checks its type and size, optionally crops it (square JPEG), uploads it to
// POST file/upload/ in the given folder and hands back {path, url}. Errors show under the button. A file to crop is
// decoded first: one that is no image (a PDF renamed .png) gets the upload's own message instead of a black cropper
// with Save disabled (issue 23.6). The native input is emptied after every pick, so picking the same file again
// (after a refusal, or to retry) is seen as a new choice (issue 23.23).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, FileButton, Stack, Text, type ButtonProps } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { FILE_MESSAGES, FOLDER_RULES, isImageSizeAllowed, type TUploadFolder } from '@sc/shared/files';
import { errorMessage } from '../api/client.ts';
import { uploadFile } from '../api/files.ts';
import { ImageCropDialog, loadImage } from './ImageCropDialog.tsx';

export type UploadedFile = { path: string; url: string };

type FileUploadButtonProps = {
  folder: TUploadFolder;
  /** Accepted extensions without the dot: ['png', 'jpeg', 'jpg', 'webp']. */
  accept: readonly string[];
  /** Defaults to the folder's limit. */
  maxBytes?: number;
  /** Crop to a square JPEG before uploading. */
  crop?: boolean;
  children?: ReactNode;
  disabled?: boolean;
  buttonProps?: ButtonProps;
  'data-testid'?: string;
  onUploaded: (file: UploadedFile) => void;
};

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
};

const extensionOf = (name: string) => name.split('.').pop()?.toLowerCase() ?? '';

/** Human size: 5 MB, 2 MB, 500 kB. */
export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} kB`;

/** Why `file` cannot be uploaded, or null. */
export function checkFile(file: File, accept: readonly string[], maxBytes: number): string | null {
  if (!accept.includes(extensionOf(file.name))) return `Only ${accept.join(', ')} files are allowed.`;
  if (file.size > maxBytes) return `The file is too large: at most ${formatBytes(maxBytes)} is allowed.`;
  return null;
}

export function FileUploadButton({
  folder,
  accept,
  maxBytes = FOLDER_RULES[folder].maxBytes,
  crop = false,
  children = 'Upload',
  disabled,
  buttonProps,
  'data-testid': testId,
  onUploaded,
}: FileUploadButtonProps) {
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [cropSrc, setCropSrc] = useState<string | null>(null);
  const [cropName, setCropName] = useState('image.jpg');
  const [checking, setChecking] = useState(false);
  const resetRef = useRef<() => void>(null);

  useEffect(() => () => {
    if (cropSrc) URL.revokeObjectURL(cropSrc);
  }, [cropSrc]);

  const upload = async (blob: Blob, name: string) => {
    setUploading(true);
    setError(null);
    try {
      const result = await uploadFile(blob, folder, name);
      onUploaded({ path: result.path, url: result.url });
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setUploading(false);
    }
  };

  const pick = (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    const problem = checkFile(file, accept, maxBytes);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    if (crop) {
      void openCropper(file);
      return;
    }
    void upload(file, file.name);
  };

  /** Opens the cropper on a file that decodes as an image of an allowed size; says why not otherwise. */
  const openCropper = async (file: File) => {
    const src = URL.createObjectURL(file);
    setChecking(true);
    try {
      const image = await loadImage(src);
      if (!isImageSizeAllowed(image.naturalWidth, image.naturalHeight)) {
        URL.revokeObjectURL(src);
        setError(FILE_MESSAGES.imageDimensionsTooLarge(image.naturalWidth, image.naturalHeight));
        return;
      }
    } catch {
      URL.revokeObjectURL(src);
      setError(FILE_MESSAGES.invalidImage);
      return;
    } finally {
      setChecking(false);
    }
    setCropName(`${file.name.replace(/\.[^.]+$/, '') || 'image'}.jpg`);
    setCropSrc(src);
  };

  const acceptAttr = [...new Set(accept.map((ext) => MIME_BY_EXTENSION[ext] ?? `.${ext}`))].join(',');

  return (
    <Stack gap={4} align="flex-start">
      <FileButton onChange={pick} accept={acceptAttr} disabled={disabled || uploading || checking} resetRef={resetRef}>
        {(props) => (
          <Button
            variant="light"
            leftSection={<IconUpload size={16} />}
            loading={(uploading && !cropSrc) || checking}
            data-testid={testId}
            {...buttonProps}
            {...props}
          >
            {children}
          </Button>
        )}
      </FileButton>
      {error && (
        <Text c="red" size="xs" role="alert" data-testid={testId ? `${testId}-error` : undefined}>
          {error}
        </Text>
      )}
      {crop && (
        <ImageCropDialog
          opened={cropSrc !== null}
          imageSrc={cropSrc}
          saving={uploading}
          onCancel={() => setCropSrc(null)}
          onSave={async (blob) => {
            if (await upload(blob, cropName)) setCropSrc(null);
          }}
        />
      )}
    </Stack>
  );
}
