// Reading the API's CSV files back in tests.
/** RFC 4180 reader for the tests: quoted fields with "" and line breaks; `columns` keys rows by the header. */
export function parseCsv(text: string): string[][];
export function parseCsv(text: string, opts: { columns: true }): Record<string, string>[];
export function parseCsv(text: string, opts?: { columns: true }): string[][] | Record<string, string>[] {
  // Every CSV starts with the UTF-8 byte order mark (csv-stream.ts CSV_BOM); a spreadsheet does not show it.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  if (!opts?.columns) return rows;
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}
