// Demo cervical photos and videos, drawn from a seed: a cervix-like disc with its os, the look of the step the
// symptom tag names (acetic acid whitening, green filter, Lugol's iodine), a vignette and sensor noise. Photos are
// JPEG (jpeg-js), videos a short H.264 MP4 (h264-mp4-encoder, WebAssembly) of the same scene under a slow zoom.
import HME from 'h264-mp4-encoder';
import jpeg from 'jpeg-js';
import { Rng } from '../../demo/rng.ts';

export const PHOTO_SIZE = { width: 480, height: 360 } as const;
export const VIDEO_SIZE = { width: 320, height: 240 } as const;
export const VIDEO_FRAMES = 24;
export const VIDEO_FPS = 12;

/** Floats in [0, 1) drawn from `seed` (the demo's mulberry32): the same seed draws the same picture. */
function rng(seed: number): () => number {
  const random = new Rng(seed);
  return () => random.next();
}

type Look = 'plain' | 'acetic' | 'green' | 'lugol';
export const lookOf = (symptomTag: string | null): Look => {
  const tag = (symptomTag ?? '').toLowerCase();
  if (tag.includes('green')) return 'green';
  if (tag.includes('lugol') || tag.includes('iodine')) return 'lugol';
  if (tag.startsWith('after')) return 'acetic';
  return 'plain';
};

/** RGBA pixels of the scene at `zoom` (1 = the photo's framing). */
function drawScene(width: number, height: number, seed: number, look: Look, zoom: number): Uint8Array {
  const rand = rng(seed);
  const cx = width * (0.45 + rand() * 0.1);
  const cy = height * (0.45 + rand() * 0.1);
  const radius = Math.min(width, height) * (0.34 + rand() * 0.06) * zoom;
  const osAngle = rand() * Math.PI;
  const lesion = { a: rand() * Math.PI * 2, d: 0.35 + rand() * 0.3, r: 0.18 + rand() * 0.12 };
  const noise = rng(seed ^ 0x9e3779b9);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = (x - cx) / radius;
      const dy = (y - cy) / radius;
      const d = Math.sqrt(dx * dx + dy * dy);
      // Background: the speculum's dark surround.
      let r = 40;
      let g = 22;
      let b = 24;
      if (d < 1) {
        const shade = 1 - d * d * 0.35;
        r = 214 * shade;
        g = 118 * shade;
        b = 122 * shade;
        // The os: a dark slit across the centre.
        const along = dx * Math.cos(osAngle) + dy * Math.sin(osAngle);
        const across = -dx * Math.sin(osAngle) + dy * Math.cos(osAngle);
        if (Math.abs(across) < 0.05 && Math.abs(along) < 0.28) {
          r *= 0.35;
          g *= 0.3;
          b *= 0.32;
        }
        const lx = dx - Math.cos(lesion.a) * lesion.d;
        const ly = dy - Math.sin(lesion.a) * lesion.d;
        const inLesion = Math.sqrt(lx * lx + ly * ly) < lesion.r;
        if (look === 'acetic' && inLesion) {
          r = 236;
          g = 226;
          b = 222;
        }
        if (look === 'lugol') {
          r *= inLesion ? 1.05 : 0.62;
          g *= inLesion ? 1.1 : 0.38;
          b *= inLesion ? 0.6 : 0.2;
        }
      } else {
        const fade = Math.max(0, 1 - (d - 1) * 2);
        r += 60 * fade;
        g += 30 * fade;
        b += 30 * fade;
      }
      if (look === 'green') {
        const l = 0.3 * r + 0.59 * g + 0.11 * b;
        r = l * 0.55;
        g = l * 1.05;
        b = l * 0.6;
      }
      // Vignette and noise.
      const vx = x / width - 0.5;
      const vy = y / height - 0.5;
      const v = 1 - (vx * vx + vy * vy) * 1.2;
      const n = (noise() - 0.5) * 14;
      const i = (y * width + x) * 4;
      out[i] = clamp(r * v + n);
      out[i + 1] = clamp(g * v + n);
      out[i + 2] = clamp(b * v + n);
      out[i + 3] = 255;
    }
  }
  return out;
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** A JPEG photo of the seed's scene. */
export function buildCervicalPhoto(seed: number, symptomTag: string | null): Buffer {
  const { width, height } = PHOTO_SIZE;
  const data = drawScene(width, height, seed, lookOf(symptomTag), 1);
  return Buffer.from(jpeg.encode({ data, width, height }, 82).data);
}

/** A short MP4 (H.264) of the seed's scene under a slow zoom. */
export async function buildCervicalVideo(seed: number, symptomTag: string | null): Promise<Buffer> {
  const { width, height } = VIDEO_SIZE;
  const encoder = await HME.createH264MP4Encoder();
  try {
    encoder.width = width;
    encoder.height = height;
    encoder.frameRate = VIDEO_FPS;
    encoder.quantizationParameter = 30;
    encoder.initialize();
    const look = lookOf(symptomTag);
    for (let f = 0; f < VIDEO_FRAMES; f++) {
      encoder.addFrameRgba(drawScene(width, height, seed, look, 1 + f * 0.01));
      // Let the server answer other requests between frames.
      await new Promise((resolve) => setImmediate(resolve));
    }
    encoder.finalize();
    return Buffer.from(encoder.FS.readFile(encoder.outputFilename));
  } finally {
    encoder.delete();
  }
}
