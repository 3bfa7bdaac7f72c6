// Test helper: the text of each page of a PDF, read with Mozilla's PDF.js (a devDependency), so tests check what
// a reader would see rather than bytes. Words of one page are joined with single spaces.
import { OPS, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** `images`: how many images each page paints. */
export type PdfText = { pages: string[]; images: number[]; title: string | null };

export async function readPdfText(data: Buffer | Uint8Array): Promise<PdfText> {
  const pdf = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    const images: number[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const ops = await page.getOperatorList();
      images.push(ops.fnArray.filter((op) => op === OPS.paintImageXObject).length);
      const content = await page.getTextContent();
      const words = content.items.map((item) => ('str' in item ? item.str : '')).filter((s) => s.trim() !== '');
      pages.push(words.join(' ').replace(/\s+/g, ' '));
    }
    const meta = await pdf.getMetadata();
    const info = meta.info as { Title?: unknown };
    return { pages, images, title: typeof info.Title === 'string' ? info.Title : null };
  } finally {
    await pdf.destroy();
  }
}
