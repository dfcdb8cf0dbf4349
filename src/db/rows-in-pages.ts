import type { DataSource } from 'typeorm';

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
