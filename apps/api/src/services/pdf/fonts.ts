// The fonts every generated PDF uses: DejaVu Sans, read from the npm package `dejavu-fonts-ttf` (no network, no
// system fonts). It covers Latin, Greek and Cyrillic, so names such as 'Nguyễn' or 'María' print as written; PDFKit
// embeds only the glyphs a document uses. Scripts it lacks (Devanagari, CJK) print as empty boxes.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type FontFiles = { regular: Buffer; bold: Buffer };

let cached: FontFiles | undefined;

/** Read once per process (about 1.4 MB); each document parses the buffers it is given. */
export function reportFonts(): FontFiles {
  cached ??= {
    regular: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return cached;
}
