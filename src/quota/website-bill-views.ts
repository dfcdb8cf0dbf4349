import type { DataSource } from 'typeorm';

/**
 * The bills each user opened on the website per UTC day (table website_bill_view): the dashboard
 * charges a bill's predictions, chart included, as one prediction the first time that day.
 */
export class WebsiteBillViews {
  /** charges under way in this process, so a bill opened by two requests at once is charged (or refused) once for both */
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether the user may see the bill's predictions today: yes when it was already opened today;
   * else `take` the prediction it costs, and when that is refused, leave it unopened.
   */
  admit(accountId: number, day: string, billId: number, take: () => Promise<boolean>): Promise<boolean> {
    const key = `${accountId}|${day}|${billId}`;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const outcome = (async () => {
      if (!(await this.open(accountId, day, billId))) return true;
      if (await take()) return true;
      await this.forget(accountId, day, billId);
      return false;
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, outcome);
    return outcome;
  }

  /** Records the bill as opened; true when this is its first opening of the day (the one to charge). */
  private async open(accountId: number, day: string, billId: number): Promise<boolean> {
    const rows = (await this.dataSource.query(`INSERT INTO website_bill_view (account_id, day, bill_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING bill_id`, [accountId, day, billId])) as unknown[];
    return rows.length === 1;
  }

  /** Undoes an opening whose prediction was refused, so it is charged when the user may see it. */
  private async forget(accountId: number, day: string, billId: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM website_bill_view WHERE account_id = $1 AND day = $2 AND bill_id = $3`, [accountId, day, billId]);
  }
}
