import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { csvCell, csvDateTime, csvFile, csvFileName, csvFromBatches, readBatches } from './csv-stream.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** Rows 1..n read after a key, as a keyset query would, recording each call's key. */
function source(n: number) {
  const calls: (number | null)[] = [];
  const rows = Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
  return {
    calls,
    read: async (after: number | null, size: number) => {
      calls.push(after);
      return rows.filter((r) => after === null || r.id > after).slice(0, size);
    },
    keyOf: (row: { id: number }) => row.id,
  };
}

describe('readBatches', () => {
  it('reads every row once, each batch after the last key, and stops at a short batch', async () => {
    for (const [n, size, calls] of [
      [0, 3, [null]],
      [2, 3, [null]],
      [7, 3, [null, 3, 6]],
      [6, 3, [null, 3, 6]],
    ] as const) {
      const s = source(n);
      const ids: number[] = [];
      for await (const row of readBatches({ ...s, size })) ids.push(row.id);
      expect(ids, `${n} rows by ${size}`).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(s.calls, `${n} rows by ${size}`).toEqual(calls);
    }
  });
});

describe('csvFromBatches', () => {
  it('writes the header and a record per row', async () => {
    const csv = csvFromBatches({
      columns: ['ID', 'Name'],
      batches: { ...source(3), size: 2 },
      record: (row) => [row.id, `Row, ${row.id}`],
      log: silent,
      what: 'test CSV',
    });
    expect(await text(csv)).toBe('ID,Name\n1,"Row, 1"\n2,"Row, 2"\n3,"Row, 3"\n');
  });

  it('logs a failure while it streams and ends the file', async () => {
    const logged: string[] = [];
    let reads = 0;
    const csv = csvFromBatches({
      columns: ['ID'],
      batches: {
        read: async (after: number | null) => {
          if (reads++ > 0) throw new Error('connection lost');
          return [{ id: after ?? 1 }];
        },
        keyOf: (row) => row.id,
        size: 1,
      },
      record: (row) => [row.id],
      log: { ...silent, error: (_fields, message) => void logged.push(message) },
      what: 'test CSV',
    });
    await expect(text(csv)).rejects.toThrow('connection lost');
    expect(logged).toEqual(['test CSV stopped']);
  });
});

describe('csvCell', () => {
  it('makes text of every cell a spreadsheet would evaluate, and leaves numbers and plain text alone', () => {
    const formulas = ['=1+1', '+91-98765-43210', '-2+3', '@SUM(A1)', ' =1', '\n\t-x', '\tx', '\rx', '-', '+'];
    for (const cell of formulas) expect(csvCell(cell), JSON.stringify(cell)).toBe(`'${cell}`);
    const plain = ['', 'Asha', 'a=b', '-1', '-50.0', '+919876543210', '2026-03-15', '12.5%', ' x'];
    for (const cell of plain) expect(csvCell(cell), JSON.stringify(cell)).toBe(cell);
  });

  it('is applied by csvFile to the text cells of every record, not to numbers', async () => {
    const csv = csvFile(['Name', 'Mobile', 'Diff'], [['=HYPERLINK("x")', '+91-1', -1]], silent, 'test CSV');
    expect(await text(csv)).toBe(`Name,Mobile,Diff\n"'=HYPERLINK(""x"")",'+91-1,-1\n`);
  });
});

describe('csvFileName', () => {
  const now = new Date('2026-11-27T20:00:00Z');
  const kolkata = (ymd: string) => new Date(`${ymd}T00:00:00+05:30`);
  it('carries the period as calendar days in the zone, its half-open end read as the day before', () => {
    const range = { from: kolkata('2026-11-01'), to: kolkata('2026-11-28') };
    expect(csvFileName('scan_details.csv', range, 'Asia/Kolkata', now)).toBe('scan_details_2026-11-01_2026-11-27.csv');
    const day = { from: kolkata('2026-11-27'), to: kolkata('2026-11-28') };
    expect(csvFileName('cervaical.csv', day, 'Asia/Kolkata', now)).toBe('cervaical_2026-11-27.csv');
  });

  it('reads an open start as until, an open end as today, no period as the day it was made (in the zone)', () => {
    expect(csvFileName('orca-scan.csv', { to: kolkata('2026-11-10') }, 'Asia/Kolkata', now)).toBe(
      'orca-scan_until_2026-11-09.csv',
    );
    expect(csvFileName('orca-scan.csv', { from: kolkata('2026-11-01') }, 'Asia/Kolkata', now)).toBe(
      'orca-scan_2026-11-01_2026-11-28.csv',
    );
    // 20:00 UTC is already the 28th in Kolkata, still the 27th in New York.
    expect(csvFileName('device_details.csv', {}, 'Asia/Kolkata', now)).toBe('device_details_2026-11-28.csv');
    expect(csvFileName('device_details.csv', {}, 'America/New_York', now)).toBe('device_details_2026-11-27.csv');
  });

  it('formats a time the same in JavaScript as the database does (csvDateTime)', () => {
    expect(csvDateTime(new Date('2026-03-10T10:05:00Z'), 'Asia/Kolkata')).toBe('2026-03-10 15:35');
    expect(csvDateTime(null, 'Asia/Kolkata')).toBe('');
  });
});
