import type { DataSource, EntityManager } from 'typeorm';

const ROWS_PER_PAGE = 500;

/**
 * Every row of a table (`columns` must include `id`), in pages of ascending id read in one
 * repeatable-read transaction, so together they are one consistent view. The event loop turns
 * between pages (each statement comes in a turn of its own, PGlite's by its session pool): on the
 * embedded database a read of every bill at once holds the thread (and so every request) for as
 * long as it takes, and grows with the data. A column may be an expression
 * of `params`, bound from $2 on: a test of every row that a WHERE clause would make one long scan.
 */
export async function readInPages<T extends { id: number }>(dataSource: DataSource, table: string, columns: string, onPage: (rows: T[]) => void, params: readonly unknown[] = []): Promise<void> {
  await dataSource.transaction('REPEATABLE READ', async (manager) => {
    let after: number | null = null;
    for (;;) {
      const rows = (await manager.query(`SELECT ${columns} FROM ${table} WHERE $1::int IS NULL OR id > $1 ORDER BY id LIMIT ${ROWS_PER_PAGE}`, [after, ...params])) as T[];
      onPage(rows);
      if (rows.length < ROWS_PER_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  });
}

/**
 * Every row of a table (`columns` must include `id`) as JSON text, a page of ascending id at a
 * time, each page one JSON array, through `manager` (the caller's transaction, so that several
 * tables are read as one view). A page arrives as one string and is not parsed here: on the
 * embedded database the event loop then spends one short statement a page, and the thread that
 * needs the rows (a training's worker) parses them. Columns keep the names the query gives them.
 */
export async function readJsonPages(manager: EntityManager, table: string, columns: string, rowsPerPage = ROWS_PER_PAGE): Promise<{ pages: string[]; rows: number }> {
  const pages: string[] = [];
  let rows = 0;
  let after: number | null = null;
  for (;;) {
    const [page] = (await manager.query(
      `SELECT coalesce(json_agg(p ORDER BY p.id), '[]')::text AS rows, count(*)::int AS n, max(p.id) AS last
       FROM (SELECT ${columns} FROM ${table} WHERE $1::int IS NULL OR id > $1 ORDER BY id LIMIT ${rowsPerPage}) p`,
      [after],
    )) as { rows: string; n: number; last: number | null }[];
    if (page.n) pages.push(page.rows);
    rows += page.n;
    if (page.n < rowsPerPage) return { pages, rows };
    after = page.last;
  }
}
