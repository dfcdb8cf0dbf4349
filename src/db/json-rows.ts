import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

export interface JsonRowsOptions {
  /** columns (entity property names) of a unique key: a row that clashes on it updates the stored one */
  upsertOn?: string[];
  /** columns (entity property names) of a unique key: a row that clashes on it is dropped, the stored one left as it was */
  keepStoredOn?: string[];
  /** rows a statement carries at most (all in one when not given): on the embedded database one statement holds the event loop */
  rowsPerStatement?: number;
}

/**
 * Inserts rows given by entity property names with one parameter per statement: the rows as one
 * jsonb array, which the database turns into the table's row type (arrays and dates included).
 * A statement with a bind parameter per value costs time to build in TypeORM and to parse in the
 * database that grows with every value; this costs about the same per row however many there are,
 * so a writer can cut its rows into small statements and let other work run between them.
 * Every row must carry the same properties; `rowsPerStatement` cuts them into statements of that many.
 */
export async function insertJsonRows<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, rows: Partial<T>[], options: JsonRowsOptions = {}): Promise<void> {
  if (!rows.length) return;
  const metadata = manager.connection.getMetadata(entity);
  const columns = Object.keys(rows[0]).map((property) => {
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.tableName} has no column for property ${property}`);
    return { property, name: column.databaseName };
  });
  const quoted = columns.map((c) => `"${c.name}"`).join(', ');
  const conflict = options.upsertOn?.map((property) => metadata.findColumnWithPropertyName(property)!.databaseName) ?? [];
  const update = columns.filter((c) => !conflict.includes(c.name)).map((c) => `"${c.name}" = EXCLUDED."${c.name}"`);
  const kept = options.keepStoredOn?.map((property) => metadata.findColumnWithPropertyName(property)!.databaseName) ?? [];
  const onConflict = conflict.length
    ? ` ON CONFLICT (${conflict.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ${update.join(', ')}`
    : kept.length
      ? ` ON CONFLICT (${kept.map((c) => `"${c}"`).join(', ')}) DO NOTHING`
      : '';
  const size = options.rowsPerStatement ?? rows.length;
  for (let i = 0; i < rows.length; i += size) {
    const json = JSON.stringify(rows.slice(i, i + size).map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.property] ?? null]))));
    await manager.query(`INSERT INTO "${metadata.tableName}" (${quoted}) SELECT ${quoted} FROM jsonb_populate_recordset(NULL::"${metadata.tableName}", $1::jsonb)${onConflict}`, [json]);
  }
}

/**
 * The rows of `select` in the order of `orderBy` (its columns as `r.name`), read as one JSON value:
 * the database aggregates them and one string crosses to JavaScript. On the embedded database each
 * row of an answer costs tens of microseconds to deliver and parse, all in one turn of the event
 * loop, more than the query itself once there are a few hundred. Columns keep the names the query
 * gives them; dates arrive as 'YYYY-MM-DD' strings, as the drivers are set to give them.
 */
export async function selectJsonRows<T>(db: Pick<EntityManager, 'query'>, select: string, params: readonly unknown[], orderBy: string): Promise<T[]> {
  const [{ rows }] = (await db.query(`SELECT coalesce(json_agg(r ORDER BY ${orderBy}), '[]')::text AS rows FROM (${select}) r`, [...params])) as { rows: string }[];
  return JSON.parse(rows) as T[];
}
