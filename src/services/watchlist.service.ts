import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { BillEntity } from '../db/entities/bill.entity';
import { WatchlistBillEntity } from '../db/entities/watchlist-bill.entity';
import { WatchlistEntity } from '../db/entities/watchlist.entity';
import { AppError, badInput, notFound } from '../errors';
import { isId } from '../common/ids';

export const MAX_WATCHLIST_BILLS = 500;
/** Far more than a customer organises bills into, few enough that one account's rows (and an hourly alert check over them) stay small. */
export const MAX_WATCHLISTS_PER_ACCOUNT = 100;

export interface WatchlistInput {
  name: unknown;
  description?: unknown;
  billIds?: unknown;
}

export interface WatchlistWithBills extends WatchlistEntity {
  bills: WatchlistBillEntity[];
}

function parseName(name: unknown): string {
  if (typeof name !== 'string' || !name.trim() || name.trim().length > 100) throw badInput('name must be 1 to 100 characters', 'name');
  return name.trim();
}

function parseDescription(description: unknown): string | null {
  if (description === undefined || description === null) return null;
  if (typeof description !== 'string' || description.length > 1000) throw badInput('description must be a string of at most 1000 characters', 'description');
  return description;
}

export function parseBillIds(ids: unknown): number[] {
  if (!Array.isArray(ids) || ids.length > MAX_WATCHLIST_BILLS) throw badInput(`billIds must be an array of at most ${MAX_WATCHLIST_BILLS} bill ids`, 'billIds');
  for (const id of ids) if (!isId(id)) throw badInput('billIds must hold positive integers (UK Parliament bill ids)', 'billIds');
  return [...new Set(ids as number[])];
}

/** Watchlists belong to one account: any other account is told they do not exist (404, never 403). */
export class WatchlistService {
  constructor(private readonly dataSource: DataSource) {}

  async list(accountId: number): Promise<(WatchlistEntity & { billCount: number })[]> {
    const lists = await this.dataSource.getRepository(WatchlistEntity).find({ where: { accountId }, order: { id: 'ASC' } });
    const counts = lists.length
      ? ((await this.dataSource.query('SELECT watchlist_id AS id, count(*)::int AS n FROM watchlist_bill WHERE watchlist_id = ANY($1) GROUP BY watchlist_id', [lists.map((l) => l.id)])) as { id: number; n: number }[])
      : [];
    const n = new Map(counts.map((c) => [c.id, c.n]));
    return lists.map((l) => Object.assign(l, { billCount: n.get(l.id) ?? 0 }));
  }

  /** How many watchlists the account has, and how many bills its fullest one holds (what a request reading them all can return). */
  async sizes(accountId: number): Promise<{ watchlists: number; watchlistBills: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS watchlists, coalesce(max(n), 0)::int AS "watchlistBills"
         FROM watchlist w LEFT JOIN LATERAL (SELECT count(*) AS n FROM watchlist_bill b WHERE b.watchlist_id = w.id) c ON true
        WHERE w.account_id = $1`,
      [accountId],
    )) as { watchlists: number; watchlistBills: number }[];
    return row;
  }

  /** The caller's watchlist, or 404 whether it does not exist or is someone else's. */
  async owned(accountId: number, id: number): Promise<WatchlistEntity> {
    const watchlist = Number.isSafeInteger(id) ? await this.dataSource.getRepository(WatchlistEntity).findOneBy({ id, accountId }) : null;
    if (!watchlist) throw notFound(`watchlist ${id} does not exist`);
    return watchlist;
  }

  async get(accountId: number, id: number): Promise<WatchlistWithBills> {
    const watchlist = await this.owned(accountId, id);
    const bills = await this.dataSource.getRepository(WatchlistBillEntity).find({ where: { watchlistId: id }, order: { addedAt: 'ASC', billId: 'ASC' } });
    return Object.assign(watchlist, { bills });
  }

  async create(accountId: number, input: WatchlistInput): Promise<WatchlistWithBills> {
    const name = parseName(input.name);
    const description = parseDescription(input.description);
    const billIds = input.billIds === undefined || input.billIds === null ? [] : parseBillIds(input.billIds);
    await this.requireBills(billIds);
    const id = await this.dataSource.transaction(async (manager) => {
      // one create at a time per account, so two at once cannot pass the limit together
      await manager.query('SELECT id FROM account WHERE id = $1 FOR UPDATE', [accountId]);
      const count = await manager.getRepository(WatchlistEntity).countBy({ accountId });
      if (count >= MAX_WATCHLISTS_PER_ACCOUNT) throw new AppError('FORBIDDEN', `Watchlist limit reached: an account may have at most ${MAX_WATCHLISTS_PER_ACCOUNT} watchlists; delete one first`);
      const inserted = await manager.createQueryBuilder().insert().into(WatchlistEntity).values({ accountId, name, description }).orIgnore().returning(['id']).execute();
      const row = inserted.raw[0] as { id: number } | undefined;
      if (!row) throw new AppError('BAD_USER_INPUT', `you already have a watchlist named "${name}"`);
      if (billIds.length) await manager.insert(WatchlistBillEntity, billIds.map((billId) => ({ watchlistId: row.id, billId })));
      return row.id;
    });
    return this.get(accountId, id);
  }

  async rename(accountId: number, id: number, newName: unknown): Promise<WatchlistWithBills> {
    const name = parseName(newName);
    await this.owned(accountId, id);
    const taken = await this.dataSource.getRepository(WatchlistEntity).findOneBy({ accountId, name });
    if (taken && taken.id !== id) throw new AppError('BAD_USER_INPUT', `you already have a watchlist named "${name}"`);
    await this.dataSource.getRepository(WatchlistEntity).update({ id, accountId }, { name });
    return this.get(accountId, id);
  }

  /** Deletes the watchlist with its bills and thresholds; its alert history stays readable. */
  async delete(accountId: number, id: number): Promise<void> {
    await this.owned(accountId, id);
    await this.dataSource.getRepository(WatchlistEntity).delete({ id, accountId });
  }

  async addBills(accountId: number, id: number, billIds: number[]): Promise<WatchlistWithBills> {
    await this.owned(accountId, id);
    if (!billIds.length) throw badInput('billIds must name at least one bill', 'billIds');
    await this.requireBills(billIds);
    const count = await this.dataSource.getRepository(WatchlistBillEntity).countBy({ watchlistId: id });
    if (count + billIds.length > MAX_WATCHLIST_BILLS) throw badInput(`a watchlist holds at most ${MAX_WATCHLIST_BILLS} bills`);
    await this.dataSource.createQueryBuilder().insert().into(WatchlistBillEntity).values(billIds.map((billId) => ({ watchlistId: id, billId }))).orIgnore().execute();
    return this.get(accountId, id);
  }

  async removeBill(accountId: number, id: number, billId: number): Promise<WatchlistWithBills> {
    await this.owned(accountId, id);
    const removed = await this.dataSource.getRepository(WatchlistBillEntity).delete({ watchlistId: id, billId });
    if (!removed.affected) throw notFound(`bill ${billId} is not on watchlist ${id}`);
    return this.get(accountId, id);
  }

  async billIds(watchlistId: number): Promise<number[]> {
    return (await this.dataSource.getRepository(WatchlistBillEntity).find({ select: { billId: true }, where: { watchlistId } })).map((b) => b.billId);
  }

  /** 404 naming every bill that does not exist. */
  private async requireBills(billIds: number[]): Promise<void> {
    if (!billIds.length) return;
    const found = new Set((await this.dataSource.getRepository(BillEntity).find({ select: { id: true }, where: { id: In(billIds) } })).map((b) => b.id));
    const unknown = billIds.filter((id) => !found.has(id));
    if (unknown.length) throw notFound(`${unknown.length === 1 ? 'bill' : 'bills'} ${unknown.join(', ')} ${unknown.length === 1 ? 'does' : 'do'} not exist`);
  }
}
