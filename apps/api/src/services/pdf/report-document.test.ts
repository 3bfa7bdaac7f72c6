import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { brandingLines, isEmbeddableImage } from './branding.ts';
import { readPdfText } from './pdf-text.testing.ts';
import { PROGRAMME_NAME, ReportAborted, ReportDocument, readReport, type TableColumn } from './report-document.ts';
import { formatDateTime, formatDateTimeInColumn, zoneHeader } from './format.ts';

const GENERATED = new Date('2026-03-05T09:00:00Z');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Row = { id: number; name: string };
const COLUMNS: TableColumn<Row>[] = [
  { header: 'Row ID', width: 1, value: (r) => `R-${r.id}` },
  { header: 'Name', width: 3, value: (r) => r.name },
];

const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Name ${i + 1}` }));

async function build(fill: (report: ReportDocument) => Promise<void> | void, timezone = 'Asia/Kolkata') {
  const report = ReportDocument.create({
    title: 'Test report',
    subject: 'María García',
    timezone,
    generatedAt: GENERATED,
    branding: { name: 'Sunrise Clinic', lines: ['1 MG Road', 'Pune, Maharashtra 411001'], logo: PNG },
  });
  const bytes = readReport(report.stream);
  await fill(report);
  report.end();
  return { report, pdf: await readPdfText(await bytes) };
}

describe('the report PDF', () => {
  it('prints the programme, the organization, the title and subject, and the time in the reader’s zone', async () => {
    const { pdf } = await build((r) => r.fields([{ label: 'Status', value: 'Certified' }, { label: 'Empty', value: null }]));
    expect(pdf.pages).toHaveLength(1);
    const page = pdf.pages[0] ?? '';
    expect(page).toContain(PROGRAMME_NAME.toUpperCase());
    expect(page).toContain('Sunrise Clinic');
    expect(page).toContain('Pune, Maharashtra 411001');
    expect(page).toContain('Test report');
    expect(page).toContain('María García');
    expect(page).toContain('Status Certified');
    expect(page).toContain('Empty —');
    // 09:00 UTC is 02:30 PM in India.
    // Every time says its zone beside it (issue 23.7), the footer also by name.
    expect(page).toContain('Generated 05 Mar 2026 02:30 PM UTC+05:30 (Asia/Kolkata)');
    expect(page).toContain('Page 1 of 1');
    expect(pdf.title).toBe('Test report – María García');
  });

  it('prints the generation time in another zone when the reader is elsewhere', async () => {
    const { pdf } = await build(() => undefined, 'America/Mexico_City');
    expect(pdf.pages[0]).toContain('Generated 05 Mar 2026 03:00 AM UTC-06:00 (America/Mexico_City)');
  });

  it('continues a long table on new pages, repeating its header row, and numbers every page with the total', async () => {
    let drawn = 0;
    const { report, pdf } = await build(async (r) => {
      r.section('Rows');
      drawn = await r.table(COLUMNS, rows(150));
    });
    expect(drawn).toBe(150);
    expect(pdf.pages.length).toBeGreaterThanOrEqual(3);
    expect(report.pageCount).toBe(pdf.pages.length);
    const total = pdf.pages.length;
    pdf.pages.forEach((text, i) => {
      expect(text).toContain('Row ID Name');
      expect(text).toContain(`Page ${i + 1} of ${total}`);
    });
    // Later pages carry the running header instead of the big one.
    expect(pdf.pages[1]).toContain(`${PROGRAMME_NAME} · Sunrise Clinic`);
    expect(pdf.pages[1]).toContain('Test report – María García');
    // Every row is printed exactly once, in order.
    const ids = pdf.pages.join(' ').match(/R-\d+/g) ?? [];
    expect(ids).toEqual(rows(150).map((r) => `R-${r.id}`));
  });

  it('reads rows from an async source and prints the empty text when there are none', async () => {
    async function* none(): AsyncGenerator<Row> {}
    async function* some(): AsyncGenerator<Row> {
      yield* rows(3);
    }
    const { pdf } = await build(async (r) => {
      await r.table(COLUMNS, none(), { emptyText: 'Nothing to show.' });
      await r.table(COLUMNS, some());
    });
    expect(pdf.pages[0]).toContain('Nothing to show.');
    expect(pdf.pages[0]).toContain('R-3 Name 3');
  });

  it('cuts a cell taller than a page instead of losing the page layout', async () => {
    const long = 'word '.repeat(3000);
    const { pdf } = await build(async (r) => {
      await r.table(COLUMNS, [{ id: 1, name: long }, { id: 2, name: 'after' }]);
    });
    expect(pdf.pages.join(' ')).toContain('R-2 after');
  });

  it('waits for a slow reader instead of holding the whole document', async () => {
    const report = ReportDocument.create({ title: 'Big', timezone: 'UTC', generatedAt: GENERATED });
    let maxBuffered = 0;
    let bytes = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        maxBuffered = Math.max(maxBuffered, report.stream.readableLength);
        setImmediate(done);
      },
    });
    const piped = pipeline(report.stream, new PassThrough({ highWaterMark: 1024 }), slow);
    async function* many(): AsyncGenerator<Row> {
      for (let i = 1; i <= 20_000; i++) yield { id: i, name: `A longer name to fill the page ${i} ${'x'.repeat(40)}` };
    }
    await report.table(COLUMNS, many());
    report.end();
    await piped;
    expect(bytes).toBeGreaterThan(800 * 1024);
    // The stream never held much more than its limit (256 KB) plus the pages drawn between two looks.
    expect(maxBuffered).toBeLessThan(bytes / 2);
    expect(maxBuffered).toBeLessThan(400 * 1024);
  });

  it('ends the stream with the error when its rows cannot be read (the reader sees a failure, not a hang)', async () => {
    const report = ReportDocument.create({ title: 'Broken', timezone: 'UTC', generatedAt: GENERATED });
    const bytes = readReport(report.stream);
    async function* failing(): AsyncGenerator<Row> {
      yield* rows(5);
      throw new Error('connection lost');
    }
    const error = await report.table(COLUMNS, failing()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    report.fail(error as Error);
    await expect(bytes).rejects.toThrow('connection lost');
  });

  it('stops with ReportAborted once the reader has gone', async () => {
    const report = ReportDocument.create({ title: 'Gone', timezone: 'UTC', generatedAt: GENERATED });
    report.stream.destroy();
    await expect(report.table(COLUMNS, rows(100))).rejects.toBeInstanceOf(ReportAborted);
  });
});

describe('report branding', () => {
  const org = {
    name: 'Sunrise Clinic',
    address1: '12 Lake Road',
    address2: null,
    address3: 'Kothrud',
    state: 'Maharashtra',
    zipcode: '411038',
    country: 'India',
    companyInfo: {},
  };

  it('prints company_info when the organization has it', () => {
    expect(
      brandingLines({
        ...org,
        companyInfo: { name: 'Sunrise Health Pvt Ltd', address: '1 MG Road', city: 'Pune', state: 'MH', zip_code: '411001', email: 'hi@sunrise.test', contact_number: '+91-9876500001' },
      }),
    ).toEqual({ name: 'Sunrise Health Pvt Ltd', lines: ['1 MG Road', 'Pune, MH 411001', 'hi@sunrise.test · +91-9876500001'] });
  });

  it('falls back to the organization’s own name and address', () => {
    expect(brandingLines(org)).toEqual({ name: 'Sunrise Clinic', lines: ['12 Lake Road, Kothrud', 'Maharashtra 411038, India'] });
  });

  it('embeds PNG and JPEG logos only', () => {
    expect(isEmbeddableImage(PNG)).toBe(true);
    expect(isEmbeddableImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe(true);
    expect(isEmbeddableImage(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe(false);
  });
});

// Issue 23.7: a report's reader may be in another zone than the one its times are written in.
describe('times in a report', () => {
  it('say their offset beside each time, and a table column names its zone in the header', () => {
    const at = new Date('2026-11-27T05:39:00Z');
    expect(formatDateTime(at, 'Asia/Kolkata')).toBe('27 Nov 2026 11:09 AM UTC+05:30');
    expect(formatDateTime(at, 'Europe/London')).toBe('27 Nov 2026 05:39 AM UTC+00:00');
    expect(formatDateTimeInColumn(at, 'Asia/Kolkata')).toBe('27 Nov 2026 11:09 AM');
    expect(zoneHeader('Date and time', 'Asia/Calcutta')).toBe('Date and time (Asia/Kolkata)');
  });
});
