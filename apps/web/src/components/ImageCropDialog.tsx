// Profile image crop dialog (part 1 §2.8): square crop, zoom in steps of 0.1, rotate, Save → a JPEG at quality 40.
// Shared by every image that is cropped before upload (company logo, later user pictures).
import { useCallback, useEffect, useState } from 'react';
import Cropper, { type Area, type Point } from 'react-easy-crop';
import { ActionIcon, Box, Button, Group, Modal, Slider, Stack, Text, Tooltip } from '@mantine/core';
import { IconRotate2, IconRotateClockwise2, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { CROP_ASPECT, CROP_QUALITY, CROP_ZOOM_STEP } from '@sc/shared/constants';

export const CROP_MIN_ZOOM = 1;
export const CROP_MAX_ZOOM = 3;

type ImageCropDialogProps = {
  opened: boolean;
  /** An object or data URL of the picked image. */
  imageSrc: string | null;
  title?: string;
  /** True while the caller uploads the result. */
  saving?: boolean;
  onCancel: () => void;
  onSave: (blob: Blob) => void | Promise<void>;
};

const clampZoom = (z: number) => Math.min(CROP_MAX_ZOOM, Math.max(CROP_MIN_ZOOM, Math.round(z * 10) / 10));

/** Decodes an image; rejects when the file is not one a browser can draw (a renamed PDF, a truncated PNG). */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.addEventListener('load', () => resolve(image));
    image.addEventListener('error', () => reject(new Error('The image could not be read.')));
    image.src = src;
  });
}

/** Draws `area` of the image (rotated by `rotation` degrees) on a canvas and encodes it as JPEG. */
export async function cropImageToBlob(src: string, area: Area, rotation = 0, quality = CROP_QUALITY): Promise<Blob> {
  const image = await loadImage(src);
  const radians = (rotation * Math.PI) / 180;
  const sin = Math.abs(Math.sin(radians));
  const cos = Math.abs(Math.cos(radians));
  // The rotated image's bounding box: react-easy-crop measures the crop area in it.
  const boxWidth = image.width * cos + image.height * sin;
  const boxHeight = image.width * sin + image.height * cos;

  const rotated = document.createElement('canvas');
  rotated.width = Math.round(boxWidth);
  rotated.height = Math.round(boxHeight);
  const rctx = rotated.getContext('2d');
  if (!rctx) throw new Error('The image could not be cropped.');
  rctx.translate(boxWidth / 2, boxHeight / 2);
  rctx.rotate(radians);
  rctx.drawImage(image, -image.width / 2, -image.height / 2);

  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(area.width));
  out.height = Math.max(1, Math.round(area.height));
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('The image could not be cropped.');
  // JPEG has no transparency: a white background instead of black.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(rotated, area.x, area.y, area.width, area.height, 0, 0, out.width, out.height);

  return new Promise((resolve, reject) => {
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be cropped.'))), 'image/jpeg', quality);
  });
}

export function ImageCropDialog({ opened, imageSrc, title = 'Crop image', saving, onCancel, onSave }: ImageCropDialogProps) {
  const [crop, setCrop] = useState<Point>({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(CROP_MIN_ZOOM);
  const [rotation, setRotation] = useState(0);
  const [area, setArea] = useState<Area | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  // A new image starts uncropped.
  useEffect(() => {
    setCrop({ x: 0, y: 0 });
    setZoom(CROP_MIN_ZOOM);
    setRotation(0);
    setArea(null);
    setError(null);
  }, [imageSrc]);

  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);

  const save = async () => {
    if (!imageSrc || !area) return;
    setWorking(true);
    setError(null);
    try {
      await onSave(await cropImageToBlob(imageSrc, area, rotation));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The image could not be cropped.');
    } finally {
      setWorking(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onCancel} title={title} size="lg" centered data-testid="image-crop-dialog">
      <Stack gap="md">
        <Box pos="relative" h={340} bg="dark.7" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
          {imageSrc && (
            <Cropper
              image={imageSrc}
              crop={crop}
              zoom={zoom}
              rotation={rotation}
              aspect={CROP_ASPECT}
              minZoom={CROP_MIN_ZOOM}
              maxZoom={CROP_MAX_ZOOM}
              zoomSpeed={CROP_ZOOM_STEP * 2}
              onCropChange={setCrop}
              onZoomChange={(z) => setZoom(clampZoom(z))}
              onRotationChange={setRotation}
              onCropComplete={onCropComplete}
            />
          )}
        </Box>
        <Group gap="xs" wrap="nowrap" align="center">
          <Tooltip label="Zoom out">
            <ActionIcon
              variant="default"
              aria-label="Zoom out"
              data-testid="crop-zoom-out"
              disabled={zoom <= CROP_MIN_ZOOM}
              onClick={() => setZoom((z) => clampZoom(z - CROP_ZOOM_STEP))}
            >
              <IconZoomOut size={18} />
            </ActionIcon>
          </Tooltip>
          <Slider
            flex={1}
            min={CROP_MIN_ZOOM}
            max={CROP_MAX_ZOOM}
            step={CROP_ZOOM_STEP}
            value={zoom}
            onChange={(z) => setZoom(clampZoom(z))}
            label={(z) => `${z.toFixed(1)}×`}
            // The name goes on the thumb (role="slider"), which is what a screen reader focuses.
            thumbLabel="Zoom"
            data-testid="crop-zoom"
          />
          <Tooltip label="Zoom in">
            <ActionIcon
              variant="default"
              aria-label="Zoom in"
              data-testid="crop-zoom-in"
              disabled={zoom >= CROP_MAX_ZOOM}
              onClick={() => setZoom((z) => clampZoom(z + CROP_ZOOM_STEP))}
            >
              <IconZoomIn size={18} />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" w={40} ta="right" data-testid="crop-zoom-value">
            {zoom.toFixed(1)}×
          </Text>
        </Group>
        <Group justify="space-between">
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconRotate2 size={16} />}
              onClick={() => setRotation((r) => (r - 90) % 360)}
              data-testid="crop-rotate-left"
            >
              Rotate left
            </Button>
            <Button
              variant="default"
              leftSection={<IconRotateClockwise2 size={16} />}
              onClick={() => setRotation((r) => (r + 90) % 360)}
              data-testid="crop-rotate-right"
            >
              Rotate right
            </Button>
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={onCancel} data-testid="crop-cancel">
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={working || saving} disabled={!area} data-testid="crop-save">
              Save
            </Button>
          </Group>
        </Group>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
