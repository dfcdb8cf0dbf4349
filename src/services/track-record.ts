import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { ForecastSource } from '../db/entities/forecast-of-record.entity';
import { selectJsonRows } from '../db/json-rows';
import type { SessionFact, TrainingBill } from '../model/serve/bill-facts';
import type { ServiceClock } from '../common/clock';
import { badInput } from '../errors';
import { isCalendarDate } from '../common/dates';
import { keepWithin } from '../common/bounded-map';
import { forecastOutcome, SCORED_OUTPUTS, type ScoredOutput } from './forecast-outcomes';
import { type OutputFigures, outputFigures, RECORD_KINDS, type ResolvedForecast } from './track-record-figures';
import { loadSessionFacts } from './training-data';
import { type BillRow, groupByBill, outcomeFacts, type StageRow } from './training-pages';
import { type CsvCell, toCsv } from './csv-export';

/** The forecasts a track record covers: by their day, both ends included; every one when not given. */
export interface RecordPeriod {
  from: string | null;
  to: string | null;
}

/** The figures of one set of forecasts of record (backfilled, live, or both). */
export interface RecordSet {
  source: 'all' | ForecastSource;
  /** resolved forecasts scored, of every output */
  resolved: number;
  outputs: OutputFigures[];
}

export interface TrackRecord extends RecordPeriod {
  /** the data's today: what has resolved by then is scored */
  asOf: string;
  /** forecasts of record of the scored outputs in the period, resolved or not */
  recorded: number;
  /** of them, not resolved yet */
  open: number;
  sets: RecordSet[];
}

/** The CSV's columns: every resolved forecast, one per row, holding everything the figures are made of. */
export const TRACK_RECORD_CSV_COLUMNS = ['bill_id', 'kind', 'forecast_date', 'output', 'value', 'table_value', 'model_version', 'trained_through', 'source', 'outcome', 'resolved_on'];

/** Periods whose figures, and whose CSV texts, are kept for the record state now: a handful asked again and again. */
const KEPT_FIGURES = 16;
const KEPT_CSV = 2;
/** Forecasts of record one statement reads. */
const FORECASTS_PER_READ = 5_000;
/** Bills whose stages one statement reads. */
const BILLS_PER_READ = 200;

interface ForecastRow {
  id: number;
  bill_id: number;
  forecast_date: string;
  output: ScoredOutput;
  value: number;
  table_value: number;
  model_version: number;
  trained_through: string;
  source: ForecastSource;
}


/** The session a day fell in: the last to have begun by then (a day of a prorogation counts with the session it ended). */
function sessionOn(day: string, sessions: readonly SessionFact[]): number {
  let found = sessions[0]?.id ?? 0;
  for (const s of sessions) if (s.startDate && s.startDate <= day) found = s.id;
  return found;
}

/** Every forecast of record of the scored outputs as of one record state: the resolved ones, and the days of those still open. */
interface ResolvedRecord {
  resolved: ResolvedForecast[];
  openDays: string[];
}

const inPeriod = (day: string, { from, to }: RecordPeriod) => (!from || day >= from) && (!to || day <= to);

/**
 * The public track record (issue 35): the forecasts of record resolved by the data's today,
 * scored (track-record-figures.ts) for backfilled and live forecasts apart and together, and the
 * same resolved forecasts as CSV, so that the figures can be recomputed from the file. Every
 * forecast is read and resolved once per record state (the forecasts recorded, the data state, the
 * day), one reading at a time, a page at a time; a period's figures and CSV are made from that one
 * set, and a few of them are kept until the state changes, so a client naming new periods costs
 * the figures of its period, never another reading of the record.
 */
export class TrackRecordService {
  private current: { state: string; today: string; record: Promise<ResolvedRecord>; figures: Map<string, Promise<TrackRecord>>; csv: Map<string, Promise<string>> } | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: ServiceClock,
    /** the data state: a sync can resolve forecasts or change what resolved them */
    private readonly dataState: () => Promise<string>,
  ) {}

  /** A period from a client's `from` and `to` (YYYY-MM-DD, either may be left out): 400 when malformed or reversed. */
  period(from: unknown, to: unknown): RecordPeriod {
    const day = (value: unknown, name: string) => {
      if (value === undefined || value === null || value === '') return null;
      if (typeof value !== 'string' || !isCalendarDate(value)) throw badInput(`${name} must be a date (YYYY-MM-DD)`, name);
      return value;
    };
    const period = { from: day(from, 'from'), to: day(to, 'to') };
    if (period.from && period.to && period.from > period.to) throw badInput(`from (${period.from}) is after to (${period.to})`, 'from');
    return period;
  }

  async record(period: RecordPeriod): Promise<TrackRecord> {
    const current = await this.ofState();
    return this.kept(current.figures, period, KEPT_FIGURES, async () => {
      const { resolved, openDays } = await current.record;
      const mine = resolved.filter((f) => inPeriod(f.forecastDate, period));
      const open = openDays.filter((day) => inPeriod(day, period)).length;
      return { ...period, asOf: current.today, recorded: mine.length + open, open, sets: await this.sets(mine) };
    });
  }

  /** The CSV text of every resolved forecast of the period, in the order recorded. */
  async csv(period: RecordPeriod): Promise<string> {
    const current = await this.ofState();
    return this.kept(current.csv, period, KEPT_CSV, async () => {
      const rows = (await current.record).resolved
        .filter((f) => inPeriod(f.forecastDate, period))
        .map((f): CsvCell[] => [f.billId, RECORD_KINDS[f.kind], f.forecastDate, f.output, f.value, f.tableValue, f.modelVersion, f.trainedThrough, f.source, f.outcome, f.resolvedOn]);
      return toCsv(TRACK_RECORD_CSV_COLUMNS, rows);
    });
  }

  /**
   * The record of the state now, read once: the state is what a recording commits with its
   * forecasts (the refresh's row, the backfilled days), the data state and the day, so a forecast
   * committed late under a lower id is never missed.
   */
  private async ofState(): Promise<NonNullable<TrackRecordService['current']>> {
    const [[recorded], data] = await Promise.all([
      this.dataSource.query(`SELECT (SELECT max(refreshed_at)::text FROM event_refresh) AS refreshed, (SELECT count(*)::int FROM forecast_backfill_day) AS days`) as Promise<{ refreshed: string | null; days: number }[]>,
      this.dataState(),
    ]);
    const today = this.clock.today();
    const state = `${recorded.refreshed ?? ''}/${recorded.days}|${data}|${today}`;
    if (this.current?.state !== state) {
      const record = this.resolveAll(today);
      const current = { state, today, record, figures: new Map(), csv: new Map() };
      // a failed reading is read again by the next request
      record.catch(() => this.current === current && (this.current = null));
      this.current = current;
    }
    return this.current;
  }

  private kept<T>(store: Map<string, Promise<T>>, period: RecordPeriod, limit: number, make: () => Promise<T>): Promise<T> {
    const key = `${period.from ?? ''}|${period.to ?? ''}`;
    let kept = store.get(key);
    if (!kept) {
      kept = make();
      const made = kept;
      made.catch(() => store.get(key) === made && store.delete(key));
      keepWithin(store, key, made, limit);
    }
    return kept;
  }

  private async sets(resolved: ResolvedForecast[]): Promise<RecordSet[]> {
    const sets: RecordSet[] = [];
    for (const source of ['all', 'backfilled', 'live'] as const) {
      const mine = source === 'all' ? resolved : resolved.filter((f) => f.source === source);
      // a set that holds every resolved forecast (no live one yet, or none backfilled) has the figures of them all
      const same = source !== 'all' && mine.length === resolved.length ? sets[0].outputs : null;
      const outputs: OutputFigures[] = same ?? [];
      // an output's figures (its bootstrap by session) take a turn of their own: requests are answered between
      if (!same) for (const output of SCORED_OUTPUTS) outputs.push((await nextTurn(), outputFigures(output, mine)));
      sets.push({ source, resolved: mine.length, outputs });
    }
    return sets;
  }

  private async resolveAll(today: string): Promise<ResolvedRecord> {
    const rows = await this.forecasts();
    const [bills, sessions] = await Promise.all([this.bills([...new Set(rows.map((r) => r.bill_id))]), loadSessionFacts(this.dataSource)]);
    const resolved: ResolvedForecast[] = [];
    const openDays: string[] = [];
    for (let i = 0; i < rows.length; i++) {
      if (i > 0 && i % 5_000 === 0) await nextTurn();
      const r = rows[i];
      const bill = bills.get(r.bill_id);
      const answer = bill && forecastOutcome(r.output, r.forecast_date, bill, sessions, today);
      if (!answer) {
        openDays.push(r.forecast_date);
        continue;
      }
      resolved.push({
        billId: r.bill_id,
        kind: bill.facts.kind,
        forecastDate: r.forecast_date,
        output: r.output,
        value: r.value,
        tableValue: r.table_value,
        modelVersion: r.model_version,
        trainedThrough: r.trained_through,
        source: r.source,
        sessionId: sessionOn(r.forecast_date, sessions),
        ...answer,
      });
    }
    return { resolved, openDays };
  }

  /**
   * Every forecast of record of the scored outputs, in the order recorded: pages of
   * FORECASTS_PER_READ rows, each delivered as one JSON text (on the embedded database a row
   * delivered on its own costs tens of microseconds), in one repeatable-read transaction.
   */
  private forecasts(): Promise<ForecastRow[]> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const rows: ForecastRow[] = [];
      for (;;) {
        const page = await selectJsonRows<ForecastRow>(
          manager,
          `SELECT id, bill_id, forecast_date::text AS forecast_date, output, value, table_value, model_version, trained_through::text AS trained_through, source
             FROM forecast_of_record WHERE id > $1 AND output = ANY($2) ORDER BY id LIMIT ${FORECASTS_PER_READ}`,
          [rows.length ? rows[rows.length - 1].id : 0, SCORED_OUTPUTS],
          'r.id',
        );
        rows.push(...page);
        if (page.length < FORECASTS_PER_READ) return rows;
      }
    });
  }

  /** What resolving the forecasts needs of their bills: their fates and dated stages (no scored output reads divisions, ballot ranks or sessions' Fridays). */
  private async bills(ids: number[]): Promise<Map<number, TrainingBill>> {
    const found = new Map<number, TrainingBill>();
    for (let i = 0; i < ids.length; i += BILLS_PER_READ) {
      const slice = ids.slice(i, i + BILLS_PER_READ);
      const [bills, stages] = await Promise.all([
        selectJsonRows<BillRow>(
          this.dataSource.manager,
          `SELECT id, kind, originating_house AS "originatingHouse", introduced_date AS "introducedDate", introduced_session_id AS "introducedSessionId",
                  lead_sponsor_party_in_government AS "leadSponsorPartyInGovernment", withdrawn_date AS "withdrawnDate", outcome, royal_assent_date AS "royalAssentDate",
                  session_ids AS "sessionIds", stage_history AS "stageHistory", missing_stage_count AS "missingStageCount"
             FROM bill WHERE id = ANY($1)`,
          [slice],
          'r.id',
        ),
        selectJsonRows<StageRow>(this.dataSource.manager, `SELECT bill_id AS "billId", seq, stage, house, sitting_dates AS "sittingDates" FROM bill_stage WHERE bill_id = ANY($1)`, [slice], 'r."billId", r.seq'),
      ]);
      const stagesOf = groupByBill(stages);
      for (const b of bills) {
        const stageFacts = (stagesOf.get(b.id) ?? []).map((s) => ({ seq: s.seq, stage: s.stage, house: s.house, dates: s.sittingDates }));
        const facts = {
          billId: b.id,
          kind: b.kind,
          originatingHouse: b.originatingHouse,
          introducedDate: b.introducedDate,
          introducedSessionId: b.introducedSessionId,
          leadSponsorPartyInGovernment: b.leadSponsorPartyInGovernment,
          stages: stageFacts,
          divisions: [],
          withdrawnDate: b.withdrawnDate,
        };
        found.set(b.id, { facts, outcome: outcomeFacts(b, stageFacts) });
      }
    }
    return found;
  }
}
