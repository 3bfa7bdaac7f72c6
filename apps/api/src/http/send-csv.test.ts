// sendCsv's Content-Disposition (RFC 6266): an ASCII file name as it is, quoted where it must be; any other name as
// UTF-8 in filename* (RFC 5987) with an ASCII filename beside it; a browser reading either gets a whole name.
import { Readable } from 'node:stream';
import { parse } from 'content-disposition';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiFileName, sendCsv } from './route-helpers.ts';

const app = Fastify();
app.get<{ Querystring: { name: string } }>('/csv', (request, reply) =>
  sendCsv(reply, request.query.name, Readable.from(['a,b\n'])),
);
afterAll(() => app.close());

async function download(name: string) {
  const res = await app.inject({ method: 'GET', url: '/csv', query: { name } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  // After the UTF-8 byte order mark every CSV starts with (csv-stream.ts CSV_BOM).
  expect(res.body).toBe('\uFEFFa,b\n');
  const header = String(res.headers['content-disposition']);
  return { header, parsed: parse(header, { extended: false }), read: parse(header).parameters.filename };
}

describe('sendCsv', () => {
  it('names an ASCII file plainly, without filename*', async () => {
    expect((await download('device_details.csv')).header).toBe('attachment; filename=device_details.csv');
    const report = await download('Quarterly_technician_report_(1 Jan - 31 Mar - 2026).csv');
    expect(report.header).toBe(
      'attachment; filename="Quarterly_technician_report_(1 Jan - 31 Mar - 2026).csv"',
    );
    expect(report.read).toBe('Quarterly_technician_report_(1 Jan - 31 Mar - 2026).csv');
    const quoted = await download('Delta "North" \\ East.csv');
    expect(quoted.header).toBe('attachment; filename="Delta \\"North\\" \\\\ East.csv"');
    expect(quoted.read).toBe('Delta "North" \\ East.csv');
  });

  it('names a file outside ASCII in UTF-8 with an ASCII fallback', async () => {
    const name = 'Clínica São Paulo_Monthly_organization_report_(1 - 28 Feb - 2026).csv';
    const latin = await download(name);
    expect(latin.header).toBe(
      'attachment; filename="Clinica Sao Paulo_Monthly_organization_report_(1 - 28 Feb - 2026).csv"; ' +
        "filename*=UTF-8''Cl%C3%ADnica%20S%C3%A3o%20Paulo_Monthly_organization_report_%281%20-%2028%20Feb%20-%202026%29.csv",
    );
    expect(latin.read).toBe(name);
    const hindi = await download('आरोग्य क्लिनिक_report.csv');
    expect(hindi.parsed.parameters.filename).toMatch(/^[\x20-\x7e]+_report\.csv$/);
    expect(hindi.read).toBe('आरोग्य क्लिनिक_report.csv');
  });

  it('keeps line breaks out of the header', async () => {
    const { header, read } = await download('a\r\nSet-Cookie: x=1.csv');
    expect(header).not.toMatch(/[\r\n]/);
    expect(read).toBe('a\r\nSet-Cookie: x=1.csv');
  });

  it('drops accents from the fallback and puts an underscore for any other character', () => {
    expect(asciiFileName('Clínica São Paulo.csv')).toBe('Clinica Sao Paulo.csv');
    expect(asciiFileName('Zürich–Nord.csv')).toBe('Zurich_Nord.csv');
    expect(asciiFileName('plain.csv')).toBe('plain.csv');
  });
});
