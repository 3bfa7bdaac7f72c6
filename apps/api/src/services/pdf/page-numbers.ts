// "Page 3 of 12" on a PDF that is streamed while it is written. The total is known only at the end, after the
// earlier pages have left the server, so each page draws a small form XObject (a stamp) whose content is written
// last, once the count is known: the way streaming PDF writers (iText's templates) do it. Holding a stamp per page
// costs a few bytes, where buffering the pages (PDFKit's `bufferPages`) would hold the whole document.
//
// PDFKit has no public API for form XObjects, so this reaches into three of its internals, typed below: `ref()`
// (a new indirect object), `page.xobjects` (the page's resources) and the current font's `ref()`/`encode()` (its
// dictionary and glyph ids; encoding also adds the glyphs to the font's subset before it is embedded at the end).
// The PDF tests read the numbers back, so a PDFKit upgrade that moves them fails there.

type PdfRef = { data: Record<string, unknown>; end: (chunk?: string) => void };
type PdfFont = {
  ref: () => PdfRef;
  encode: (text: string) => [string[], unknown[]];
  widthOfString: (text: string, size: number) => number;
};
type PdfInternals = {
  ref: (data?: Record<string, unknown>) => PdfRef;
  page: { xobjects: Record<string, PdfRef> };
  addContent: (data: string) => unknown;
};

type Stamp = { ref: PdfRef; page: number };

export type PageNumberStyle = {
  /** Font size in points. */
  size: number;
  /** Fill colour as r, g, b from 0 to 1. */
  rgb: readonly [number, number, number];
  /** Width of the box the text is right-aligned in. */
  width: number;
};

export class PageNumbers {
  private readonly stamps: Stamp[] = [];

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly style: PageNumberStyle,
  ) {}

  /**
   * Places the stamp of the current page: its right edge at `right`, its baseline at `baseline` (PDFKit's
   * top-down coordinates).
   */
  stamp(right: number, baseline: number): void {
    const pdf = this.doc as unknown as PdfInternals;
    const { width, size } = this.style;
    const page = this.stamps.length + 1;
    const ref = pdf.ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, -size * 0.4, width, size * 1.2] });
    const name = `PageNo${page}`;
    pdf.page.xobjects[name] = ref;
    // PDFKit draws with the y axis flipped (top-down); the stamp is placed with its own y axis pointing up again.
    pdf.addContent(`q 1 0 0 -1 ${num(right - width)} ${num(baseline)} cm /${name} Do Q`);
    this.stamps.push({ ref, page });
  }

  /** Writes every stamp with the final count, in `font` (PDFKit's current font object). Call before doc.end(). */
  finish(font: unknown): void {
    const f = font as PdfFont;
    const total = this.stamps.length;
    const { size, rgb, width } = this.style;
    for (const { ref, page } of this.stamps) {
      const text = pageLabel(page, total);
      const [glyphs] = f.encode(text);
      const x = Math.max(0, width - f.widthOfString(text, size));
      ref.data.Resources = { Font: { F0: f.ref() } };
      ref.end(`BT /F0 ${num(size)} Tf ${rgb.map(num).join(' ')} rg 1 0 0 1 ${num(x)} 0 Tm <${glyphs.join('')}> Tj ET`);
    }
  }

  get count(): number {
    return this.stamps.length;
  }
}

export const pageLabel = (page: number, total: number): string => `Page ${page} of ${total}`;

const num = (n: number): string => String(Math.round(n * 100) / 100);
