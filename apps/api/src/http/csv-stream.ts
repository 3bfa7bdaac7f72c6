// A list's format=csv written while the response streams: the header row, the records, and the log line when the
// database fails mid-file (the status line is already sent, so the file only ends early); for lists read in keyset
// batches, the loop that asks for the rows after the last one. One place for every CSV download: each writes through
// csvFile, which makes every text cell one a spreadsheet reads as text (csvCell).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { API_DATE_FORMAT, CSV_DATE_TIME_FORMAT, csvHeader } from '@sc/shared/constants';
import type { ServiceLogger } from '../services/logger.ts';
import { canonicalZone } from '../services/pdf/format.ts';
import type { PeriodRange } from './period.ts';
import { keepReadContext } from '../db/replica.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The UTF-8 byte order mark every CSV download starts with (route-helpers sendCsv): without it Excel reads the file
 * in the machine's legacy code page and 'López' comes out as 'LÃ³pez' (issue 23.14).
 */
export const CSV_BOM = '\uFEFF';

/** A time as every CSV writes it (CSV_DATE_TIME_FORMAT) in `zone`; nothing for no time. */
export const csvDateTime = (date: Date | string | null | undefined, zone: string): string =>
  date ? dayjs(date).tz(zone).format(CSV_DATE_TIME_FORMAT) : '';

/** A CSV's header whose columns of times name `zone` (by its current name: Asia/Calcutta reads Asia/Kolkata). */
export const csvHeaderIn = (columns: readonly string[], timeColumns: readonly string[], zone: string): string[] =>
  csvHeader(columns, timeColumns, canonicalZone(zone));

/** csvDateTime written in SQL, for the cells the database formats (CSV_DATE_TIME_FORMAT in to_char's words). */
export const csvDateTimeSql = (column: SQLWrapper, zone: string): SQL<string> =>
  sql<string>`to_char(${column} at time zone ${zone}, 'YYYY-MM-DD HH24:MI')`;

/**
 * The download's file name: the spec's name with the period it holds, as calendar days in `zone`
 * ('scan_details_2026-11-01_2026-11-27.csv', one day once: 'scan_details_2026-11-27.csv'); a period open at the
 * start reads 'until_<last day>'; a file of no period carries the day it was made ('device_details_2026-11-27.csv').
 */
export function csvFileName(file: string, range: PeriodRange, zone: string, now: Date): string {
  const day = (date: Date) => dayjs(date).tz(zone).format(API_DATE_FORMAT);
  const first = range.from ? day(range.from) : null;
  // The range ends before `to` (half-open): its last day is the one of the millisecond before.
  const last = range.to ? day(new Date(range.to.getTime() - 1)) : null;
  const today = day(now);
  let parts: string[];
  if (first) {
    const end = last ?? (first > today ? first : today);
    parts = end === first ? [first] : [first, end];
  } else parts = last ? ['until', last] : [today];
  return `${file.replace(/\.csv$/, '')}_${parts.join('_')}.csv`;
}

// A cell starting with = + - or @, after any spaces or line breaks, or with a tab or carriage return, is a formula to
// a spreadsheet (CSV injection: a patient named '=HYPERLINK(…)' sent by a device; Excel evaluates a mobile number
// '+91-98765…' too); a leading apostrophe makes it text. A plain number ('-1', '-50.0', a report's differences) is
// not a formula and stays a number. The same pattern in JavaScript and in PostgreSQL (ARE).
const FORMULA_START = '^(?![+-]?[0-9]+(?:\\.[0-9]+)?$)(?:[\\t\\r]|[\\t\\n\\r ]*[=+@-])';
const FORMULA_START_RE = new RegExp(FORMULA_START);

/** `value` as a CSV cell a spreadsheet reads as text, never as a formula. */
export const csvCell = (value: string): string => (FORMULA_START_RE.test(value) ? `'${value}` : value);

// Every cell FORMULA_START takes starts with one of these: PostgreSQL tests the first character before the pattern (the
// pattern alone on every cell cost about 3 µs a cell, a minute for a million-scan COPY; this test, almost nothing).
const FORMULA_FIRST_CODES = [...'\t\n\r =+@-'].map((c) => c.charCodeAt(0)).join(', ');

/** csvCell written in SQL, for the one file the database writes itself (the scan CSV's COPY). */
export const csvCellSql = (cell: SQLWrapper): SQL =>
  sql`(case when ascii(${cell}) in (${sql.raw(FORMULA_FIRST_CODES)}) and ${cell} ~ ${FORMULA_START}
    then '''' || ${cell} else ${cell} end)`;

/** The key of the lists read newest first: (date_time, id), the ties broken by id. */
export type NewestFirstKey = { dateTime: Date; id: number };

export type CsvBatches<Row, Key> = {
  /** At most `size` rows in the file's order after the row keyed `after` (null: from the first). */
  read: (after: Key | null, size: number) => Promise<Row[]>;
  /** The key of a row, where the next batch starts after. */
  keyOf: (row: Row) => Key;
  size: number;
};

/** Every row, one batch at a time; a batch shorter than `size` is the last. */
export async function* readBatches<Row, Key>({
  read,
  keyOf,
  size,
}: CsvBatches<Row, Key>): AsyncGenerator<Row> {
  let after: Key | null = null;
  for (;;) {
    const rows = await read(after, size);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < size) return;
    after = keyOf(last);
  }
}

/**
 * A CSV file: a header of `columns`, then each of `records` as it comes, every text cell through csvCell. A failure
 * while it streams ends the file and is logged as '{what} stopped'.
 */
export function csvFile(
  columns: readonly string[],
  records: Iterable<unknown[]> | AsyncIterable<unknown[]>,
  log: ServiceLogger,
  what: string,
): Readable {
  const csv = stringify({ header: true, columns: [...columns], cast: { string: csvCell } });
  // Later batches are read when the client drains the file: in the request's read context still (db/replica.ts).
  pipeline(Readable.from(keepReadContext(records)), csv).catch((error: unknown) => {
    log.error({ err: error instanceof Error ? error.message : String(error) }, `${what} stopped`);
  });
  return csv;
}

/** The CSV file of `batches`: `record(row)` for each row (csvFile). */
export function csvFromBatches<Row, Key>(options: {
  columns: readonly string[];
  batches: CsvBatches<Row, Key>;
  record: (row: Row) => unknown[];
  log: ServiceLogger;
  what: string;
}): Readable {
  const { columns, batches, record, log, what } = options;
  async function* records() {
    for await (const row of readBatches(batches)) yield record(row);
  }
  return csvFile(columns, records(), log, what);
}
