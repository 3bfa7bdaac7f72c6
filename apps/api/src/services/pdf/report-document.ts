// The house report PDF (training and practice reports now; scan, exam and period reports later): A4, a header with
// the programme name and the organization's company details and logo, titled sections, label/value fields, tables
// that continue across pages with their header row repeated, and a footer with the generation time in the reader's
// time zone and "Page i of N".
//
// The document is a stream: pages leave the server as they are finished, and `flush()` waits while the reader is
// behind, so a report of many thousand rows needs the memory of a page or two. The caller sends `stream` and fills
// the document afterwards; `ReportAborted` from `flush()` means the reader went away.
//   const report = ReportDocument.create({ title: 'Training report', timezone, generatedAt, branding });
//   reply.send(report.stream);
//   report.section('Scans'); await report.table(columns, rowsFromDatabase()); report.end();
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { reportFonts } from './fonts.ts';
import { formatDateTime } from './format.ts';
import { PageNumbers } from './page-numbers.ts';

/** The programme every report is printed for (the console's own name: page title, mail sender). */
export const PROGRAMME_NAME = 'Screening Console';

/** Who the report is printed for: the organization's company details (company_info) and its logo. */
export type ReportBranding = {
  name: string;
  /** Address, city/state/zip, e-mail and phone lines, already joined and without empty ones. */
  lines: string[];
  /** PNG or JPEG bytes; null for none. */
  logo: Buffer | null;
};

export type ReportOptions = {
  /** 'Training report': big on the first page, repeated small on the others. */
  title: string;
  /** Whom or what the report is about ('Pooja Sharma'), printed under the title. */
  subject?: string | null;
  branding?: ReportBranding | null;
  /** IANA zone the dates are printed in (the request's `Timezone`). */
  timezone: string;
  generatedAt: Date;
  keywords?: string;
};

export type TableColumn<T> = {
  header: string;
  /** Relative width: the columns share the page width in proportion. */
  width: number;
  align?: 'left' | 'right' | 'center';
  value: (row: T) => string;
};

export type Field = { label: string; value: string | number | null | undefined };

/** The reader closed the connection: stop producing. */
export class ReportAborted extends Error {
  constructor() {
    super('The report was aborted: its reader went away.');
  }
}

const REGULAR = 'Regular';
const BOLD = 'Bold';

const COLORS = {
  brand: '#047b6d',
  text: '#1f2933',
  muted: '#5e6f87',
  rule: '#cdd5df',
  stripe: '#f4f6f9',
  headerFill: '#e6f7f5',
} as const;
const MUTED_RGB = [0x5e / 255, 0x6f / 255, 0x87 / 255] as const;

// A4 in points; content between the margins, the footer below CONTENT_BOTTOM.
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 40;
const MARGIN_TOP = 36;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const CONTENT_BOTTOM = PAGE_HEIGHT - 58;
const FOOTER_RULE_Y = PAGE_HEIGHT - 48;
const FOOTER_TEXT_Y = PAGE_HEIGHT - 40;
const FOOTER_SIZE = 7.5;
const LOGO_SIZE = 52;
const CELL_PAD_X = 4;
const CELL_PAD_Y = 3.5;
const TABLE_SIZE = 8;
/** A cell never grows past this: longer text is cut with an ellipsis, so a row always fits on a page. */
const MAX_ROW_HEIGHT = 120;
/** Rows drawn between two looks at the reader. */
const ROWS_PER_FLUSH = 40;
/** Bytes the stream may hold for a slow reader before drawing waits. */
const BUFFER_LIMIT = 256 * 1024;

type TextStyle = {
  font?: typeof REGULAR | typeof BOLD;
  size: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** Cut to this height with an ellipsis. */
  height?: number;
};

export class ReportDocument {
  /** The PDF bytes: send or pipe it. */
  readonly stream: Readable;
  private y = MARGIN_TOP;
  private readonly pageNumbers: PageNumbers;
  private resumeDrawing: (() => void) | null = null;
  private ended = false;

  private constructor(
    private readonly pdf: PDFKit.PDFDocument,
    private readonly options: ReportOptions,
  ) {
    this.stream = pdf;
    this.pageNumbers = new PageNumbers(pdf, { size: FOOTER_SIZE, rgb: MUTED_RGB, width: 120 });
    // PDFKit pushes whatever it writes and ignores the reader; Node asks for more (`_read`) once the reader has
    // taken what was buffered, which is when a waiting `flush()` may go on.
    (pdf as unknown as { _read: () => void })._read = () => this.resume();
    pdf.once('close', () => this.resume());
  }

  static create(options: ReportOptions): ReportDocument {
    const fonts = reportFonts();
    const pdf = new PDFDocument({
      size: 'A4',
      // No bottom margin for PDFKit: the footer is drawn below the content, and PDFKit would start a new page for
      // text placed inside its margin. Page breaks are this class's own (CONTENT_BOTTOM).
      margins: { top: MARGIN_TOP, left: MARGIN_X, right: MARGIN_X, bottom: 0 },
      autoFirstPage: false,
      compress: true,
      lang: 'en',
      displayTitle: true,
      info: {
        Title: options.subject ? `${options.title} – ${options.subject}` : options.title,
        Author: options.branding?.name ?? PROGRAMME_NAME,
        Creator: PROGRAMME_NAME,
        Producer: PROGRAMME_NAME,
        CreationDate: options.generatedAt,
        ...(options.keywords ? { Keywords: options.keywords } : {}),
      },
    });
    pdf.registerFont(REGULAR, fonts.regular);
    pdf.registerFont(BOLD, fonts.bold);
    const report = new ReportDocument(pdf, options);
    report.addPage(true);
    return report;
  }

  /** Pages so far. */
  get pageCount(): number {
    return this.pageNumbers.count;
  }

  /** Waits while the reader is behind; throws ReportAborted once it has gone. Call between batches of work. */
  async flush(): Promise<void> {
    if (this.pdf.destroyed) throw new ReportAborted();
    if (this.pdf.readableLength < BUFFER_LIMIT) return;
    await new Promise<void>((resolve) => {
      this.resumeDrawing = resolve;
    });
    if (this.pdf.destroyed) throw new ReportAborted();
  }

  /** A section title; it starts a new page when fewer than `keepWith` points would follow it on this one. */
  section(title: string, keepWith = 60): void {
    const height = 24;
    if (this.y > MARGIN_TOP + 80) this.y += 8;
    this.ensureSpace(height + keepWith);
    this.text(MARGIN_X, this.y, title, { font: BOLD, size: 11, color: COLORS.brand, width: CONTENT_WIDTH });
    this.pdf
      .moveTo(MARGIN_X, this.y + 16)
      .lineTo(MARGIN_X + CONTENT_WIDTH, this.y + 16)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
    this.y += height;
  }

  /** Label/value pairs in `columns` columns; empty values print as '—'. */
  fields(fields: readonly Field[], columns: 1 | 2 = 2): void {
    const gap = 16;
    const colWidth = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
    const labelWidth = Math.min(110, colWidth * 0.4);
    const valueWidth = colWidth - labelWidth - 6;
    for (let i = 0; i < fields.length; i += columns) {
      const row = fields.slice(i, i + columns);
      const heights = row.map((f) =>
        Math.max(
          this.measure(f.label, { size: 8, width: labelWidth }),
          this.measure(display(f.value), { size: 9, width: valueWidth }),
        ),
      );
      const height = Math.max(...heights) + 5;
      this.ensureSpace(height);
      row.forEach((f, c) => {
        const x = MARGIN_X + c * (colWidth + gap);
        this.text(x, this.y + 1, f.label, { size: 8, color: COLORS.muted, width: labelWidth });
        this.text(x + labelWidth + 6, this.y, display(f.value), { size: 9, color: COLORS.text, width: valueWidth });
      });
      this.y += height;
    }
  }

  /** A paragraph of running text (`muted` for notes). */
  paragraph(text: string, opts: { muted?: boolean; size?: number } = {}): void {
    const size = opts.size ?? (opts.muted ? 8 : 9);
    const height = Math.min(this.measure(text, { size, width: CONTENT_WIDTH }), CONTENT_BOTTOM - this.topOfContent());
    this.ensureSpace(height + 4);
    this.text(MARGIN_X, this.y, text, {
      size,
      color: opts.muted ? COLORS.muted : COLORS.text,
      width: CONTENT_WIDTH,
      height,
    });
    this.y += height + 4;
  }

  /** A PNG or JPEG image fitted into `width` × `height` points, with an optional caption under it. */
  image(data: Buffer, opts: { width: number; height: number; caption?: string }): void {
    const captionHeight = opts.caption ? this.measure(opts.caption, { size: 8, width: opts.width }) + 4 : 0;
    this.ensureSpace(opts.height + captionHeight + 6);
    this.pdf.image(data, MARGIN_X, this.y, { fit: [opts.width, opts.height] });
    this.y += opts.height + 4;
    if (opts.caption) {
      this.text(MARGIN_X, this.y, opts.caption, { size: 8, color: COLORS.muted, width: opts.width });
      this.y += captionHeight;
    }
    this.y += 2;
  }

  /**
   * A table of `rows` (a list, or an async iterable read batch by batch from the database). Pages break between
   * rows, and each new page repeats the header row. Returns the number of rows drawn; with none, `emptyText`.
   * `emphasis` prints a row in bold (a total).
   */
  async table<T>(
    columns: readonly TableColumn<T>[],
    rows: Iterable<T> | AsyncIterable<T>,
    opts: { emptyText?: string; emphasis?: (row: T) => boolean } = {},
  ): Promise<number> {
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * CONTENT_WIDTH);
    const headerHeight = this.rowHeight(
      columns.map((c) => c.header),
      widths,
      BOLD,
    );
    const drawHeader = () => {
      this.drawRow(
        columns.map((c) => c.header),
        widths,
        columns.map((c) => c.align ?? 'left'),
        { font: BOLD, fill: COLORS.headerFill, height: headerHeight },
      );
    };
    // The header never sits alone at the bottom of a page.
    this.ensureSpace(headerHeight + 18);
    drawHeader();
    let count = 0;
    for await (const row of rows) {
      const cells = columns.map((c) => c.value(row));
      const font = opts.emphasis?.(row) ? BOLD : REGULAR;
      const height = Math.min(this.rowHeight(cells, widths, font), MAX_ROW_HEIGHT);
      if (this.y + height > CONTENT_BOTTOM) {
        this.addPage(false);
        drawHeader();
      }
      this.drawRow(
        cells,
        widths,
        columns.map((c) => c.align ?? 'left'),
        { font, fill: count % 2 === 1 ? COLORS.stripe : null, height },
      );
      count++;
      if (count % ROWS_PER_FLUSH === 0) await this.flush();
    }
    if (count === 0 && opts.emptyText) {
      this.text(MARGIN_X + CELL_PAD_X, this.y + CELL_PAD_Y, opts.emptyText, {
        size: TABLE_SIZE,
        color: COLORS.muted,
        width: CONTENT_WIDTH,
      });
      this.y += 18;
    }
    this.y += 6;
    return count;
  }

  /** Finishes the document: writes the page numbers and closes the stream. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.pdf.font(REGULAR);
    this.pageNumbers.finish((this.pdf as unknown as { _font: unknown })._font);
    this.pdf.end();
  }

  /** Stops the document with an error (the response ends early; the error is the caller's to log). */
  fail(error: Error): void {
    this.ended = true;
    this.pdf.destroy(error);
  }

  // ---- layout -------------------------------------------------------------------------------------------------

  private resume(): void {
    const resume = this.resumeDrawing;
    this.resumeDrawing = null;
    resume?.();
  }

  private topOfContent(): number {
    return MARGIN_TOP + 30;
  }

  private ensureSpace(height: number): void {
    if (this.y + height > CONTENT_BOTTOM) this.addPage(false);
  }

  private addPage(first: boolean): void {
    this.pdf.addPage();
    this.y = first ? this.drawBrandHeader() : this.drawRunningHeader();
    this.drawFooter();
  }

  /** First page: logo and company details on the left, programme, title and subject on the right. */
  private drawBrandHeader(): number {
    const { branding, title, subject } = this.options;
    const half = CONTENT_WIDTH / 2;
    let left = MARGIN_TOP;
    if (branding) {
      let x = MARGIN_X;
      if (branding.logo) {
        try {
          this.pdf.image(branding.logo, MARGIN_X, MARGIN_TOP, { fit: [LOGO_SIZE, LOGO_SIZE] });
          x += LOGO_SIZE + 10;
          left = MARGIN_TOP + LOGO_SIZE;
        } catch {
          // A logo PDFKit cannot read (a damaged file) leaves the header without it rather than failing the report.
        }
      }
      const width = half - (x - MARGIN_X) - 8;
      let y = MARGIN_TOP;
      y += this.text(x, y, branding.name, { font: BOLD, size: 11, color: COLORS.text, width }) + 2;
      for (const line of branding.lines) y += this.text(x, y, line, { size: 7.5, color: COLORS.muted, width });
      left = Math.max(left, y);
    }
    const rightX = MARGIN_X + half;
    let right = MARGIN_TOP;
    right += this.text(rightX, right, PROGRAMME_NAME.toUpperCase(), {
      size: 7.5,
      color: COLORS.muted,
      width: half,
      align: 'right',
    });
    right += this.text(rightX, right + 1, title, { font: BOLD, size: 17, color: COLORS.brand, width: half, align: 'right' }) + 1;
    if (subject) right += this.text(rightX, right, subject, { size: 10, color: COLORS.text, width: half, align: 'right' });
    const bottom = Math.max(left, right) + 8;
    this.rule(bottom, 1.5, COLORS.brand);
    return bottom + 14;
  }

  /** Later pages: one line naming the programme, organization, title and subject. */
  private drawRunningHeader(): number {
    const { branding, title, subject } = this.options;
    const half = CONTENT_WIDTH / 2;
    const leftText = branding ? `${PROGRAMME_NAME} · ${branding.name}` : PROGRAMME_NAME;
    this.text(MARGIN_X, MARGIN_TOP, leftText, { size: 7.5, color: COLORS.muted, width: half, height: 10 });
    this.text(MARGIN_X + half, MARGIN_TOP, subject ? `${title} – ${subject}` : title, {
      font: BOLD,
      size: 7.5,
      color: COLORS.text,
      width: half,
      align: 'right',
      height: 10,
    });
    this.rule(MARGIN_TOP + 14, 0.75, COLORS.brand);
    return MARGIN_TOP + 26;
  }

  private drawFooter(): void {
    const { generatedAt, timezone } = this.options;
    this.rule(FOOTER_RULE_Y, 0.5, COLORS.rule);
    this.text(MARGIN_X, FOOTER_TEXT_Y, `Generated ${formatDateTime(generatedAt, timezone)} (${timezone}) · ${PROGRAMME_NAME}`, {
      size: FOOTER_SIZE,
      color: COLORS.muted,
      width: CONTENT_WIDTH - 130,
      height: 10,
    });
    // The baseline of a line PDFKit starts at `y` is about 0.93 em lower with DejaVu Sans.
    this.pageNumbers.stamp(MARGIN_X + CONTENT_WIDTH, FOOTER_TEXT_Y + FOOTER_SIZE * 0.93);
  }

  private rule(y: number, width: number, color: string): void {
    this.pdf
      .moveTo(MARGIN_X, y)
      .lineTo(MARGIN_X + CONTENT_WIDTH, y)
      .lineWidth(width)
      .strokeColor(color)
      .stroke();
  }

  private rowHeight(cells: readonly string[], widths: readonly number[], font: typeof REGULAR | typeof BOLD): number {
    let max = 0;
    cells.forEach((cell, i) => {
      max = Math.max(max, this.measure(cell, { font, size: TABLE_SIZE, width: (widths[i] ?? 0) - 2 * CELL_PAD_X }));
    });
    return max + 2 * CELL_PAD_Y;
  }

  private drawRow(
    cells: readonly string[],
    widths: readonly number[],
    aligns: ReadonlyArray<'left' | 'right' | 'center'>,
    style: { font: typeof REGULAR | typeof BOLD; fill: string | null; height: number },
  ): void {
    if (style.fill) this.pdf.rect(MARGIN_X, this.y, CONTENT_WIDTH, style.height).fill(style.fill);
    let x = MARGIN_X;
    cells.forEach((cell, i) => {
      const width = widths[i] ?? 0;
      this.text(x + CELL_PAD_X, this.y + CELL_PAD_Y, cell, {
        font: style.font,
        size: TABLE_SIZE,
        color: COLORS.text,
        width: width - 2 * CELL_PAD_X,
        align: aligns[i] ?? 'left',
        height: style.height - 2 * CELL_PAD_Y,
      });
      x += width;
    });
    this.y += style.height;
  }

  private measure(text: string, style: TextStyle): number {
    this.pdf.font(style.font ?? REGULAR).fontSize(style.size);
    return this.pdf.heightOfString(text, { width: style.width, lineGap: 0 });
  }

  /** Draws `text` at (x, y) and answers its height. */
  private text(x: number, y: number, text: string, style: TextStyle): number {
    this.pdf
      .font(style.font ?? REGULAR)
      .fontSize(style.size)
      .fillColor(style.color ?? COLORS.text);
    const height = style.height ?? this.pdf.heightOfString(text, { width: style.width, lineGap: 0 });
    this.pdf.text(text, x, y, {
      width: style.width,
      align: style.align ?? 'left',
      lineGap: 0,
      // One point of slack: a height measured with heightOfString must not cut its own last line.
      ...(style.height !== undefined ? { height: style.height + 1, ellipsis: true } : {}),
    });
    return height;
  }
}

const display = (value: Field['value']): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** Collects a report's bytes (for callers that store the PDF rather than send it). */
export async function readReport(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
