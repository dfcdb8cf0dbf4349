import type { DataSource } from 'typeorm';
import { In, IsNull, MoreThan } from 'typeorm';
import { BillSponsorEntity } from '../db/entities/bill-sponsor.entity';
import { BillStageEntity } from '../db/entities/bill-stage.entity';
import { BillEntity } from '../db/entities/bill.entity';
import { DivisionEntity } from '../db/entities/division.entity';
import { ParliamentarySessionEntity } from '../db/entities/parliamentary-session.entity';
import { ScheduledSittingEntity } from '../db/entities/scheduled-sitting.entity';
import type { ServiceClock } from '../common/clock';
import type { BillKind, BillOutcome, House } from '../ingest/bill-record';
import type { BillOrder } from '../vocabulary';
import { badInput } from '../errors';
import { decodeIdCursor, encodeIdCursor } from '../common/ids';

export interface BillFilter {
  sessionId?: number;
  kind?: BillKind;
  originatingHouse?: House;
  outcome?: BillOutcome;
  titleContains?: string;
}

export interface BillPage {
  bills: BillEntity[];
  totalCount: number;
  hasNextPage: boolean;
}

export const MAX_PAGE_SIZE = 100;

export const encodeBillCursor = (id: number) => encodeIdCursor('bill', id);

export function decodeBillCursor(cursor: string): number {
  const id = decodeIdCursor('bill', cursor);
  if (id === null) throw badInput('after is not a cursor this API issued');
  return id;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Groups rows by bill id in the order of the requested ids: what a DataLoader batch must return. */
function groupByBill<T extends { billId: number }>(ids: readonly number[], rows: T[]): T[][] {
  const groups = new Map<number, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(row.billId)?.push(row);
  return ids.map((id) => groups.get(id)!);
}

export class BillService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Pick<ServiceClock, 'today'>,
  ) {}

  async byIds(ids: readonly number[]): Promise<(BillEntity | null)[]> {
    const rows = await this.dataSource.getRepository(BillEntity).findBy({ id: In([...ids]) });
    const byId = new Map(rows.map((b) => [b.id, b]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async list(filter: BillFilter, first: number, afterId: number | null, order: BillOrder = 'id'): Promise<BillPage> {
    const query = this.dataSource.getRepository(BillEntity).createQueryBuilder('bill');
    // null is GraphQL's "not given" as much as an absent field is: no filter, not "no session"
    if (filter.sessionId != null) query.andWhere('bill.introducedSessionId = :sessionId', { sessionId: filter.sessionId });
    if (filter.kind) query.andWhere('bill.kind = :kind', { kind: filter.kind });
    if (filter.originatingHouse) query.andWhere('bill.originatingHouse = :house', { house: filter.originatingHouse });
    if (filter.outcome) query.andWhere('bill.outcome = :outcome', { outcome: filter.outcome });
    if (filter.titleContains) query.andWhere(`bill.title ILIKE :title ESCAPE '\\'`, { title: `%${escapeLike(filter.titleContains)}%` });
    const totalCount = await query.getCount();
    if (order === 'newest_first') {
      // the cursor stays a bill id: the page resumes after that bill's place (its session, then its id)
      if (afterId !== null) {
        const after = await this.dataSource.getRepository(BillEntity).findOneBy({ id: afterId });
        if (!after) throw badInput('after is not a cursor this API issued');
        query.andWhere('(bill.introducedSessionId < :afterSession OR (bill.introducedSessionId = :afterSession AND bill.id < :afterId))', { afterSession: after.introducedSessionId, afterId });
      }
      query.orderBy('bill.introducedSessionId', 'DESC').addOrderBy('bill.id', 'DESC');
    } else {
      if (afterId !== null) query.andWhere('bill.id > :afterId', { afterId });
      query.orderBy('bill.id', 'ASC');
    }
    const rows = await query.take(first + 1).getMany();
    return { bills: rows.slice(0, first), totalCount, hasNextPage: rows.length > first };
  }

  async count(): Promise<number> {
    return this.dataSource.getRepository(BillEntity).count();
  }

  sessions(): Promise<ParliamentarySessionEntity[]> {
    return this.dataSource.getRepository(ParliamentarySessionEntity).find({ order: { id: 'ASC' } });
  }

  async sessionsByIds(ids: readonly number[]): Promise<(ParliamentarySessionEntity | null)[]> {
    const rows = await this.dataSource.getRepository(ParliamentarySessionEntity).findBy({ id: In([...ids]) });
    const byId = new Map(rows.map((s) => [s.id, s]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async stagesOfBills(ids: readonly number[]): Promise<BillStageEntity[][]> {
    const rows = await this.dataSource.getRepository(BillStageEntity).find({ where: { billId: In([...ids]) }, order: { billId: 'ASC', seq: 'ASC' } });
    return groupByBill(ids, rows);
  }

  async sponsorsOfBills(ids: readonly number[]): Promise<BillSponsorEntity[][]> {
    const rows = await this.dataSource.getRepository(BillSponsorEntity).find({ where: { billId: In([...ids]) }, order: { billId: 'ASC', position: 'ASC' } });
    return groupByBill(ids, rows);
  }

  async divisionsOfBills(ids: readonly number[]): Promise<DivisionEntity[][]> {
    const rows = await this.dataSource.getRepository(DivisionEntity).find({ where: { billId: In([...ids]) }, order: { billId: 'ASC', date: 'ASC', number: 'ASC' } });
    return groupByBill(ids, rows);
  }

  /** The standing (not superseded) scheduled sittings of each bill dated after the service's today, soonest first. */
  async scheduledSittingsOfBills(ids: readonly number[]): Promise<ScheduledSittingEntity[][]> {
    const rows = await this.dataSource.getRepository(ScheduledSittingEntity).find({
      where: { billId: In([...ids]), supersededAt: IsNull(), scheduledFor: MoreThan(this.clock.today()) },
      order: { billId: 'ASC', scheduledFor: 'ASC', billStageId: 'ASC' },
    });
    return groupByBill(ids, rows);
  }
}
