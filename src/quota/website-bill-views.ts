import type { DataSource } from 'typeorm';

/**
 * The bills each user opened on the website per UTC day (table website_bill_view): the dashboard
 * charges a bill's predictions, chart included, as one prediction the first time that day.
 */
export class WebsiteBillViews {
  constructor(private readonly dataSource: DataSource) {}

  /** Records the bill as opened; true when this is its first opening of the day (the one to charge). */
  async open(accountId: number, day: string, billId: number): Promise<boolean> {
    const rows = (await this.dataSource.query(`INSERT INTO website_bill_view (account_id, day, bill_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING bill_id`, [accountId, day, billId])) as unknown[];
    return rows.length === 1;
  }

  /** Undoes an opening whose prediction was refused, so it is charged when the user may see it. */
  async forget(accountId: number, day: string, billId: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM website_bill_view WHERE account_id = $1 AND day = $2 AND bill_id = $3`, [accountId, day, billId]);
  }
}
