// Moving rows out to the trash and back (issue 27). A delete reads the record and every row its delete cascades to
// (the foreign keys with ON DELETE CASCADE, read from the catalog so a new child table is followed without a change
// here), keeps them as JSON, parents before children, then deletes the record for real: the cascades and the tables'
// triggers (scan stats, list counts, packed map days, follow-up figures) run as for any delete. A restore re-inserts
// the same rows with the same ids in the same order (the INSERT triggers count them again), then puts back the links
// that ON DELETE SET NULL cleared in rows that stayed.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { TrashedRows } from '../../db/schema/index.ts';

/** Tables a trigger fills from their parent's INSERT: not kept (the restore's INSERT rebuilds them). */
const DERIVED_TABLES = new Set(['patient_search']);

type ForeignKey = {
  child: string;
  column: string;
  columnType: string;
  parent: string;
  parentColumn: string;
  /** c: cascade, n: set null, r/a: restrict/no action, d: set default. */
  onDelete: string;
};

let foreignKeysCache: Promise<ForeignKey[]> | null = null;
const columnsCache = new Map<string, Promise<string[]>>();

/** `values` as a parameter of type `type[]` (drizzle spreads a JS array into a list of parameters). */
const arrayOf = (values: readonly string[], type: string) =>
  sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))::${sql.raw(type)}[]`;

async function rowsOf<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}

/** Every single-column foreign key of the public schema (the schema is the same for every database the API opens). */
function foreignKeys(db: DbOrTx): Promise<ForeignKey[]> {
  foreignKeysCache ??= rowsOf<ForeignKey>(
    db,
    sql`select cc.relname as child, a.attname as column, format_type(a.atttypid, a.atttypmod) as "columnType",
          pc.relname as parent, pa.attname as "parentColumn", c.confdeltype::text as "onDelete"
        from pg_constraint c
        join pg_class cc on cc.oid = c.conrelid
        join pg_class pc on pc.oid = c.confrelid
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace and cardinality(c.conkey) = 1
        order by cc.relname, a.attname`,
  ).catch((error: unknown) => {
    foreignKeysCache = null;
    throw error;
  });
  return foreignKeysCache;
}

/** The columns an INSERT may write (not generated ones). */
function insertableColumns(db: DbOrTx, table: string): Promise<string[]> {
  let columns = columnsCache.get(table);
  if (!columns) {
    columns = rowsOf<{ name: string }>(
      db,
      sql`select attname as name from pg_attribute
          where attrelid = ${`public.${table}`}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
          order by attnum`,
    ).then((rows) => rows.map((r) => r.name));
    columnsCache.set(table, columns);
  }
  return columns;
}

const keyOf = (row: Record<string, unknown>): string => ('id' in row ? String(row.id) : JSON.stringify(row));

/** A link ON DELETE SET NULL cleared in a row that stayed: put back on restore. */
export type ClearedLink = { table: string; column: string; ids: unknown[]; value: unknown };

export type Captured = { rows: TrashedRows[]; links: ClearedLink[] };

/**
 * The rows of `table` whose id is in `ids` and every row their delete cascades to, parents before children, plus
 * the SET NULL links into them from rows that stay. Read inside the deleting transaction.
 */
export async function captureRows(
  db: DbOrTx,
  table: string,
  ids: readonly number[],
  options: { cascade?: boolean } = {},
): Promise<Captured> {
  const fks = await foreignKeys(db);
  const seen = new Map<string, Set<string>>();
  const chunks: TrashedRows[] = [];
  const queue: Array<{ table: string; column: string; type: string; values: unknown[] }> = [
    { table, column: 'id', type: 'integer', values: [...ids] },
  ];
  while (queue.length > 0) {
    const step = queue.shift()!;
    const values = [...new Set(step.values.filter((v) => v !== null && v !== undefined).map(String))];
    if (values.length === 0) continue;
    const found = await rowsOf<{ row: Record<string, unknown> }>(
      db,
      sql`select to_jsonb(t) as row from ${sql.identifier(step.table)} t
          where t.${sql.identifier(step.column)} = any(${arrayOf(values, step.type)})`,
    );
    const known = seen.get(step.table) ?? new Set<string>();
    seen.set(step.table, known);
    const fresh = found.map((f) => f.row).filter((r) => !known.has(keyOf(r)));
    if (fresh.length === 0) continue;
    for (const r of fresh) known.add(keyOf(r));
    chunks.push({ table: step.table, rows: orderSelfReferences(fks, step.table, fresh) });
    if (options.cascade === false) break;
    for (const fk of fks) {
      if (fk.parent !== step.table || fk.onDelete !== 'c' || DERIVED_TABLES.has(fk.child)) continue;
      queue.push({ table: fk.child, column: fk.column, type: fk.columnType, values: fresh.map((r) => r[fk.parentColumn]) });
    }
  }
  // SET NULL links into the deleted rows from rows that are not deleted.
  const links: ClearedLink[] = [];
  for (const chunk of chunks) {
    for (const fk of fks) {
      if (fk.parent !== chunk.table || fk.onDelete !== 'n') continue;
      const values = [...new Set(chunk.rows.map((r) => r[fk.parentColumn]).filter((v) => v != null).map(String))];
      if (values.length === 0) continue;
      const referring = await rowsOf<{ id: unknown; value: unknown }>(
        db,
        sql`select t.id, t.${sql.identifier(fk.column)} as value from ${sql.identifier(fk.child)} t
            where t.${sql.identifier(fk.column)} = any(${arrayOf(values, fk.columnType)})`,
      );
      const deleted = seen.get(fk.child);
      const staying = referring.filter((r) => !deleted?.has(String(r.id)));
      const byValue = new Map<string, unknown[]>();
      for (const r of staying) byValue.set(String(r.value), [...(byValue.get(String(r.value)) ?? []), r.id]);
      for (const [value, refIds] of byValue) links.push({ table: fk.child, column: fk.column, ids: refIds, value });
    }
  }
  return { rows: chunks, links };
}

/** Rows of a self-referencing table (a duplicate scan and its parent) with each referenced row first. */
function orderSelfReferences(fks: ForeignKey[], table: string, rows: Array<Record<string, unknown>>) {
  const self = fks.filter((fk) => fk.child === table && fk.parent === table);
  if (self.length === 0) return rows;
  const ordered: Array<Record<string, unknown>> = [];
  const placed = new Set<string>();
  let pending = rows;
  while (pending.length > 0) {
    const ids = new Set(pending.map((r) => String(r[self[0]!.parentColumn])));
    const ready = pending.filter((r) =>
      self.every((fk) => r[fk.column] == null || placed.has(String(r[fk.column])) || !ids.has(String(r[fk.column]))),
    );
    const next = ready.length > 0 ? ready : pending; // a cycle cannot be ordered: keep the rest as they are
    for (const r of next) {
      ordered.push(r);
      placed.add(String(r[self[0]!.parentColumn]));
    }
    pending = pending.filter((r) => !next.includes(r));
  }
  return ordered;
}

/** Re-inserts trashed rows with their ids, in order, then puts back the cleared links. Run inside a transaction. */
export async function restoreRows(db: DbOrTx, captured: Captured): Promise<void> {
  for (const chunk of captured.rows) {
    const columns = await insertableColumns(db, chunk.table);
    const list = sql.join(
      columns.map((c) => sql.identifier(c)),
      sql`, `,
    );
    await db.execute(
      sql`insert into ${sql.identifier(chunk.table)} (${list}) overriding system value
          select ${list} from jsonb_populate_recordset(null::${sql.identifier(chunk.table)}, ${JSON.stringify(chunk.rows)}::jsonb)`,
    );
  }
  for (const link of captured.links) {
    await db.execute(
      sql`update ${sql.identifier(link.table)} set ${sql.identifier(link.column)} = ${link.value}
          where id = any(${arrayOf(link.ids.map(String), 'integer')}) and ${sql.identifier(link.column)} is null`,
    );
  }
}

/**
 * Writes a kept row back as it was (a user: the row stays, anonymised, while it is in the trash). Every insertable
 * column but the id is set from the JSON.
 */
export async function rewriteRow(db: DbOrTx, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = (await insertableColumns(db, table)).filter((c) => c !== 'id');
  const list = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  await db.execute(
    sql`update ${sql.identifier(table)} set (${list}) = (
          select ${list} from jsonb_populate_record(null::${sql.identifier(table)}, ${JSON.stringify(row)}::jsonb))
        where id = ${Number(row.id)}`,
  );
}

/** Rows of each table, e.g. { patients: 1, scans: 3 }. */
export const countsOf = (rows: TrashedRows[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const chunk of rows) counts[chunk.table] = (counts[chunk.table] ?? 0) + chunk.rows.length;
  return counts;
};

/** The storage keys the trashed rows name: reports, consent forms, assessments, exam files and documents. */
export function fileKeysOf(rows: TrashedRows[]): string[] {
  const keys = new Set<string>();
  const strings = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes('/')) keys.add(value);
    } else if (Array.isArray(value)) value.forEach(strings);
    else if (value && typeof value === 'object') Object.values(value).forEach(strings);
  };
  const FILE_COLUMNS: Record<string, string[]> = {
    patients: ['most_recent_mammogram_report'],
    scans: ['scan_files_path'],
    cervical_exams: ['file_path'],
    orca_exams: ['file_path'],
    cervical_documents: ['path'],
  };
  for (const chunk of rows) {
    for (const column of FILE_COLUMNS[chunk.table] ?? []) for (const r of chunk.rows) strings(r[column]);
  }
  return [...keys];
}
