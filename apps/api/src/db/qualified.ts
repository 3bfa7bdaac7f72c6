// A column named with its table, for the outer row in a correlated subquery. Drizzle writes a column bare in a query
// of one table (`select … from tutorial_modules`, a count), so `${inner.moduleId} = ${outer.id}` becomes
// `"module_id" = "id"`, and the bare "id" binds to the subquery's own table: every row's count instead of the outer
// row's.
import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';

export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
