// The demo's firmware files (architecture §8): each demo version has a real .ibe text behind it, generated from its
// version alone, so the seed can record its checksum and size without writing files (`npm start` stays fast) and every
// download builds and serves the same bytes, storing nothing (a read changes nothing). Demo paths carry a `demo/`
// segment no upload makes.
import { createHash } from 'node:crypto';
import { FIRMWARE_FOLDER } from '@sc/shared/firmware';

const DEMO_PREFIX = `${FIRMWARE_FOLDER}/demo/`;

export const demoFirmwarePath = (version: string): string =>
  `${DEMO_PREFIX}${version.replace(/[^A-Za-z0-9]+/g, '_')}.ibe`;

export const isDemoFirmwarePath = (path: string): boolean => path.startsWith(DEMO_PREFIX);

/** 'v2.14' then a header and 256 lines of hex image data derived from the version: about 34 KB of text. */
export function demoFirmwareContent(version: string): Buffer {
  const lines = [version, `# iBreastExam sensor firmware ${version}`, '# format: ibe-text/1', ''];
  let block = createHash('sha256').update(`ibe-firmware:${version}`).digest();
  for (let i = 0; i < 256; i++) {
    block = createHash('sha256').update(block).digest();
    lines.push(`${i.toString(16).padStart(4, '0')}:${block.toString('hex')}${block.toString('hex')}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

export const sha256Hex = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The row fields of a demo version: its path, and the checksum and size of the bytes it will serve. */
export function demoFirmwareFile(version: string): { path: string; checksum: string; size: number } {
  const data = demoFirmwareContent(version);
  return { path: demoFirmwarePath(version), checksum: sha256Hex(data), size: data.length };
}
