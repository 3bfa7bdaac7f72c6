// Content sniffing: what a file is, from its first bytes (magic numbers), never from its name or the type the
// client claims. Firmware (.ibe) is text whose first line is the version, e.g. 'v2.14' (architecture §7). Image
// dimensions are read from the header (image-size), never by decoding the pixels.
import { imageSize } from 'image-size';
import type { TFileKind, TImageKind } from '@sc/shared/files';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// ISO base media brands of MP4 video; HEIC/AVIF images and QuickTime share the 'ftyp' box but are not MP4.
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'M4V ',
  'dash',
  'mmp4',
  'MSNV',
]);

function startsWith(data: Buffer, bytes: readonly number[], at = 0): boolean {
  if (data.length < at + bytes.length) return false;
  return bytes.every((b, i) => data[at + i] === b);
}

const ascii = (data: Buffer, from: number, to: number) =>
  data.length >= to ? data.toString('latin1', from, to) : '';

function isWebpFirstChunk(data: Buffer): boolean {
  switch (ascii(data, 12, 16)) {
    case 'VP8 ':
      return startsWith(data, [0x9d, 0x01, 0x2a], 23);
    case 'VP8L':
      return data[20] === 0x2f;
    case 'VP8X':
      return data.length >= 30;
    default:
      return false;
  }
}

/** The binary kind of `data` (png, jpeg, webp, pdf, mp4), or null. Minimal structure is checked too. */
export function sniffBinaryKind(data: Buffer): Exclude<TFileKind, 'ibe'> | null {
  // PNG: signature, then the IHDR chunk first.
  if (startsWith(data, PNG) && ascii(data, 12, 16) === 'IHDR') return 'png';
  // JPEG: SOI then a marker.
  if (startsWith(data, [0xff, 0xd8, 0xff]) && data.length > 4) return 'jpeg';
  // WEBP: RIFF container of form type WEBP whose first chunk is VP8 (lossy: a key frame's start code), VP8L
  // (lossless: its signature byte) or VP8X (extended: a 10-byte header).
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP' && isWebpFirstChunk(data)) return 'webp';
  if (ascii(data, 0, 5) === '%PDF-') return 'pdf';
  if (ascii(data, 4, 8) === 'ftyp' && MP4_BRANDS.has(ascii(data, 8, 12))) return 'mp4';
  return null;
}

/** `v2.14`, `2.14`, `V3` — the numeric part must be greater than zero. */
const VERSION_LINE = /^v?(\d+(?:\.\d+){0,3})$/i;

/** The version on the first line of an .ibe firmware text, or null when `data` is not one. */
export function readFirmwareVersion(data: Buffer): string | null {
  if (data.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
  const firstLine =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0]
      ?.trim() ?? '';
  const match = VERSION_LINE.exec(firstLine);
  if (!match?.[1]) return null;
  if (!match[1].split('.').some((part) => Number(part) > 0)) return null;
  return firstLine;
}

/**
 * The kind of an uploaded file among `accepted`, or null. Firmware must also be named `*.ibe`: it is plain text,
 * so the name is the only thing that tells it from any other text with a number on its first line.
 */
export function detectFileKind(
  data: Buffer,
  fileName: string | undefined,
  accepted: readonly TFileKind[],
): TFileKind | null {
  if (accepted.includes('ibe')) {
    if (/\.ibe$/i.test(fileName ?? '') && readFirmwareVersion(data) !== null) return 'ibe';
  }
  const kind = sniffBinaryKind(data);
  return kind && accepted.includes(kind) ? kind : null;
}

// image-size's names for the kinds sniffBinaryKind recognises.
const IMAGE_SIZE_TYPES: Record<TImageKind, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/**
 * Width and height an image of `kind` declares in its header, or null when the header is unreadable, names
 * another format, or declares an empty canvas. Reads headers only: nothing is decoded, whatever the size claimed.
 */
export function readImageDimensions(data: Buffer, kind: TImageKind): { width: number; height: number } | null {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(data);
  } catch {
    return null;
  }
  if (size.type !== IMAGE_SIZE_TYPES[kind]) return null;
  // A JPEG may carry several images (thumbnails, MPF): the largest one counts.
  const all = [size, ...(size.images ?? [])];
  const width = Math.max(...all.map((s) => s.width));
  const height = Math.max(...all.map((s) => s.height));
  if (!(width >= 1 && height >= 1)) return null;
  return { width, height };
}
