// The photo of a demo ORCA finding, drawn as a JPEG (jpeg-js) from the finding's row: a close-up of oral mucosa (or
// skin for the face and neck) lit by the camera's ring light, with a lesion drawn for each symptom the finding
// records (white patch, red patch, ulcer, swelling…). Seeded by the finding id, so the same finding always gives the
// same picture. Devices upload real photos; this only makes the demo's findings reviewable.
import jpeg from 'jpeg-js';
import type { TOrcaExamKind } from '@sc/shared/orca';
import { Rng } from '../../demo/rng.ts';

export const ORCA_IMAGE_SIZE = { width: 480, height: 360 } as const;

type Rgb = [number, number, number];
type Lesion = {
  x: number;
  y: number;
  rx: number;
  ry: number;
  color: Rgb;
  rim?: Rgb;
  strength: number;
  wobble: number;
};

/** Floats in [0, 1) drawn from `seed` (the demo's mulberry32): the same finding draws the same picture. */
function seeded(seed: number): () => number {
  const random = new Rng(seed);
  return () => random.next();
}

const SYMPTOM_LOOKS: Record<string, Pick<Lesion, 'color' | 'rim' | 'strength'>> = {
  'White patch': { color: [236, 232, 222], strength: 0.85 },
  'Red patch': { color: [168, 28, 42], strength: 0.8 },
  Ulcer: { color: [222, 200, 120], rim: [150, 30, 40], strength: 0.9 },
  Swelling: { color: [214, 120, 120], strength: 0.45 },
  'Burning sensation': { color: [196, 60, 60], strength: 0.35 },
  'Restricted mouth opening': { color: [120, 60, 64], strength: 0.5 },
  'Palpable node': { color: [150, 92, 80], strength: 0.55 },
};

/** The JPEG of one finding: `symptoms` decide the lesions, the exam kind the tissue. */
export function drawFindingImage(finding: {
  id: number;
  exam: TOrcaExamKind;
  symptoms: readonly string[];
}): Buffer {
  const { width, height } = ORCA_IMAGE_SIZE;
  const rand = seeded(finding.id * 2654435761);
  const skin = finding.exam !== 'intra_oral_exam';
  const base: Rgb = skin
    ? [206 + rand() * 20, 160 + rand() * 20, 130 + rand() * 20]
    : [214, 112 + rand() * 20, 120 + rand() * 16];
  const lesions: Lesion[] = finding.symptoms.map((symptom) => {
    const look = SYMPTOM_LOOKS[symptom] ?? { color: [190, 80, 80] as Rgb, strength: 0.5 };
    return {
      ...look,
      x: width * (0.3 + rand() * 0.4),
      y: height * (0.3 + rand() * 0.4),
      rx: 30 + rand() * 45,
      ry: 22 + rand() * 35,
      wobble: rand() * Math.PI * 2,
    };
  });
  // Low-frequency texture: a coarse grid of random values, bilinearly interpolated.
  const grid = 12;
  const cols = Math.ceil(width / grid) + 2;
  const rows = Math.ceil(height / grid) + 2;
  const texture = Array.from({ length: cols * rows }, () => rand() - 0.5);
  const sample = (x: number, y: number) => {
    const gx = x / grid;
    const gy = y / grid;
    const x0 = Math.floor(gx);
    const y0 = Math.floor(gy);
    const fx = gx - x0;
    const fy = gy - y0;
    const at = (cx: number, cy: number) => texture[cy * cols + cx] ?? 0;
    return (
      at(x0, y0) * (1 - fx) * (1 - fy) +
      at(x0 + 1, y0) * fx * (1 - fy) +
      at(x0, y0 + 1) * (1 - fx) * fy +
      at(x0 + 1, y0 + 1) * fx * fy
    );
  };

  const data = Buffer.alloc(width * height * 4);
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Ring light: bright in the middle, falling off to a dark edge.
      const d = Math.hypot((x - cx) / cx, (y - cy) / cy);
      const light = Math.max(0.15, 1.08 - 0.55 * d * d);
      const grain = sample(x, y) * 26 + (rand() - 0.5) * 8;
      let r = base[0] + grain;
      let g = base[1] + grain * 0.7;
      let b = base[2] + grain * 0.7;
      for (const l of lesions) {
        const angle = Math.atan2(y - l.y, x - l.x);
        const edge = 1 + 0.18 * Math.sin(3 * angle + l.wobble) + 0.1 * Math.sin(5 * angle - l.wobble);
        const e = Math.hypot((x - l.x) / l.rx, (y - l.y) / l.ry) / edge;
        if (e < 1) {
          const w = l.strength * Math.min(1, (1 - e) * 3);
          r = r * (1 - w) + l.color[0] * w;
          g = g * (1 - w) + l.color[1] * w;
          b = b * (1 - w) + l.color[2] * w;
        } else if (l.rim && e < 1.25) {
          const w = 0.7 * (1 - (e - 1) / 0.25);
          r = r * (1 - w) + l.rim[0] * w;
          g = g * (1 - w) + l.rim[1] * w;
          b = b * (1 - w) + l.rim[2] * w;
        }
      }
      const o = (y * width + x) * 4;
      data[o] = Math.max(0, Math.min(255, r * light));
      data[o + 1] = Math.max(0, Math.min(255, g * light));
      data[o + 2] = Math.max(0, Math.min(255, b * light));
      data[o + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 82).data;
}
