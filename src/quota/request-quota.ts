import type { Tier } from '../db/entities/account.entity';
import { AppError } from '../errors';
import { ChargeLedger } from './charge-ledger';
import type { QuotaStore } from './quota-store';
import type { WebsiteBillViews } from './website-bill-views';
import { QUOTA_LABEL, type QuotaKind, TIER_LIMITS } from './tier-limits';

const DAY_SECONDS = 86_400;

/** The RateLimit-Policy header of each tier: the same for every response, so written once. */
const POLICIES = Object.fromEntries(
  (Object.keys(TIER_LIMITS) as Tier[]).map((tier) => [
    tier,
    (Object.keys(TIER_LIMITS[tier]) as QuotaKind[]).map((k) => `"${k}";q=${TIER_LIMITS[tier][k]};w=${DAY_SECONDS}`).join(', '),
  ]),
) as Record<Tier, string>;

const MS_PER_DAY = DAY_SECONDS * 1000;
/** The last UTC day a request was charged on, as text: every request of a day shares it instead of formatting a date. */
let lastDay = { number: Number.NaN, text: '' };
const utcDayText = (ms: number): string => {
  const number = Math.floor(ms / MS_PER_DAY);
  if (number !== lastDay.number) lastDay = { number, text: new Date(number * MS_PER_DAY).toISOString().slice(0, 10) };
  return lastDay.text;
};

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/**
 * A daily limit's reset in words: "midnight UTC (00:00 on 2 December in London)". The quota day
 * is the real UTC day whatever the service's day (a snapshot's day never moves on, and a limit
 * must reset), so the message says which midnight, and what o'clock that is where Parliament sits.
 */
export function resetInWords(resetAt: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) => LONDON.formatToParts(resetAt).find((p) => p.type === type)?.value;
  return `midnight UTC (${part('hour')}:${part('minute')} on ${part('day')} ${part('month')} in London)`;
}

/**
 * One request's view of its user's daily limits (per user across all their keys, per UTC day).
 * Remembers what it learned of each limit it touched, for the rate-limit headers of the response.
 */
export class RequestQuota {
  private readonly remaining = new Map<QuotaKind, number>();
  /** units this request holds, per limit: taken less given back */
  private readonly held = new Map<QuotaKind, number>();
  /** what this request took for things its response shows; settled against the response (see settleCharges) */
  readonly ledger = new ChargeLedger();
  /** the response is known and its charges settled: nothing more is taken for it */
  private settled = false;

  constructor(
    private readonly store: QuotaStore,
    private readonly accountId: number,
    private readonly tier: Tier,
    private readonly now: Date,
    /** told of each refusal, by limit (counted for /metrics) */
    private readonly onRefused: (kind: QuotaKind) => void = () => undefined,
    /** set for a website (dashboard session) request: predictions are charged per bill opened per day */
    private readonly billViews: WebsiteBillViews | null = null,
  ) {}

  /** The request comes from the website, not the API. */
  get website(): boolean {
    return this.billViews !== null;
  }

  private get day(): string {
    return utcDayText(this.now.getTime());
  }

  /** The next midnight UTC: when every daily limit resets. */
  get resetAt(): Date {
    return new Date((Math.floor(this.now.getTime() / MS_PER_DAY) + 1) * MS_PER_DAY);
  }

  private get secondsToReset(): number {
    return Math.max(1, Math.ceil((this.resetAt.getTime() - this.now.getTime()) / 1000));
  }

  limit(kind: QuotaKind): number {
    return TIER_LIMITS[this.tier][kind];
  }

  /** Grants up to `amount` (fewer when the limit is near); what a batch uses for its predictions. A take of 0 just reads. */
  async takeUpTo(kind: QuotaKind, amount: number): Promise<number> {
    // graphql-js answers as soon as an error nulls the whole result, while sibling fields' loaders may
    // still be running: what they would take after the settlement could never reach the response
    if (this.settled) return 0;
    const { granted, used } = await this.store.take(this.accountId, this.day, kind, Math.max(0, amount), this.limit(kind));
    this.remaining.set(kind, Math.max(0, this.limit(kind) - used));
    this.hold(kind, granted);
    return granted;
  }

  /**
   * Charges one unit per success, in order, as far as the limit allows: the successes past it
   * become its 429 error. Errors are passed through and cost nothing.
   */
  async chargeEach<T>(kind: QuotaKind, results: readonly (T | AppError)[]): Promise<(T | AppError)[]> {
    let granted = await this.takeUpTo(kind, results.filter((r) => !(r instanceof AppError)).length);
    return results.map((r) => (r instanceof AppError ? r : granted-- > 0 ? r : this.exceeded(kind)));
  }

  /** Takes `amount` whole, or nothing and a 429 that says which limit and when it resets. */
  async require(kind: QuotaKind, amount = 1): Promise<void> {
    await this.requireAll([[kind, amount]]);
  }

  /** Takes every charge whole, or none of them and a 429 for the first limit that fell short (a kept answer charged again as it was when computed). */
  async requireAll(charges: ReadonlyArray<readonly [QuotaKind, number]>): Promise<void> {
    const short = await this.shortOf(charges);
    if (short) throw this.exceeded(short);
  }

  /** Takes every charge whole, or none of them and false. */
  async takeAll(charges: ReadonlyArray<readonly [QuotaKind, number]>): Promise<boolean> {
    return (await this.shortOf(charges)) === null;
  }

  /** Takes every charge whole and answers null, or takes none and answers the first kind whose limit fell short. */
  private async shortOf(charges: ReadonlyArray<readonly [QuotaKind, number]>): Promise<QuotaKind | null> {
    const taken: [QuotaKind, number][] = [];
    for (const [kind, units] of charges) {
      const granted = await this.takeUpTo(kind, units);
      taken.push([kind, granted]);
      if (granted < units) {
        for (const [given, amount] of taken) await this.refund(given, amount);
        return kind;
      }
    }
    return null;
  }

  /**
   * The website's charge for predictions: a bill's predictions (any dates, its chart) cost one
   * prediction the first time the user opens that bill on a UTC day; reopening it costs nothing.
   * A bill past the daily limit fails with 429 and stays unopened. Errors cost nothing.
   */
  async chargeBillViews<T>(billIds: readonly number[], results: readonly (T | AppError)[]): Promise<(T | AppError)[]> {
    const refused = new Map<number, AppError>();
    for (const billId of new Set(billIds.filter((_, i) => !(results[i] instanceof AppError)))) {
      if (!(await this.billViews!.admit(this.accountId, this.day, billId, async () => (await this.takeUpTo('predictions', 1)) === 1))) refused.set(billId, this.exceeded('predictions'));
    }
    return results.map((r, i) => refused.get(billIds[i]) ?? r);
  }

  /** Charges the predictions of these bills (one result each) as the caller's door does: per bill opened per day on the website, one each on the API. */
  chargePredictions<T>(billIds: readonly number[], results: readonly (T | AppError)[]): Promise<(T | AppError)[]> {
    return this.website ? this.chargeBillViews(billIds, results) : this.chargeEach('predictions', results);
  }

  /** Today's use of every limit, for the account page. */
  async usage(): Promise<{ kind: QuotaKind; used: number; limit: number; resetsAt: Date }[]> {
    const kinds = Object.keys(TIER_LIMITS[this.tier]) as QuotaKind[];
    return Promise.all(
      kinds.map(async (kind) => {
        const { used } = await this.store.take(this.accountId, this.day, kind, 0, this.limit(kind));
        return { kind, used, limit: this.limit(kind), resetsAt: this.resetAt };
      }),
    );
  }

  /** Counts the request as one API call (429 past the limit). Never given back: a request that started was a call. */
  async chargeCall(): Promise<void> {
    await this.require('calls');
  }

  /** Gives back units taken for something the response does not show (a prediction in a failed request, a batch whose items were all blocked). */
  async refund(kind: QuotaKind, amount = 1): Promise<void> {
    if (amount <= 0) return;
    await this.store.refund(this.accountId, this.day, kind, amount);
    this.remaining.set(kind, Math.min(this.limit(kind), (this.remaining.get(kind) ?? 0) + amount));
    this.hold(kind, -amount);
  }

  private hold(kind: QuotaKind, units: number): void {
    if (units) this.held.set(kind, (this.held.get(kind) ?? 0) + units);
  }

  /** What this request has been charged so far, per limit (given-back units deducted). */
  charged(): ReadonlyMap<QuotaKind, number> {
    return new Map(this.held);
  }

  /** Gives back what was charged for things the response does not hold (`data` null: the request failed as a whole). */
  async settleCharges(data: Record<string, unknown> | null | undefined): Promise<void> {
    this.settled = true;
    for (const [kind, units] of this.ledger.notShown(data)) await this.refund(kind, units);
  }

  exceeded(kind: QuotaKind): AppError {
    if (!this.settled) this.onRefused(kind);
    const limit = this.limit(kind);
    // a Free user meets this on the website: say what the next tier would give
    const upgrade = this.tier === 'free' ? `. The pilot tier gives ${TIER_LIMITS.pilot.predictions} predictions a day and API keys: ask the service's operator to upgrade your account` : '';
    return new AppError(
      'RATE_LIMITED',
      `Daily ${QUOTA_LABEL[kind]} limit reached: the ${this.tier} tier allows ${limit.toLocaleString('en-GB')} a day; it resets at ${resetInWords(this.resetAt)}${upgrade}`,
      {
        headers: {
          'Retry-After': String(this.secondsToReset),
          ...this.headers(),
          // the limit that refused, whatever else the request touched
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
          RateLimit: `"${kind}";r=0;t=${this.secondsToReset}`,
        },
      },
    );
  }

  /**
   * X-RateLimit-Remaining: what is left of the tightest limit this request touched, and
   * X-RateLimit-Limit its size; X-RateLimit-Reset: Unix seconds of the next midnight UTC; and the IETF RateLimit-Policy /
   * RateLimit pair naming the same limits.
   */
  headers(): Record<string, string> {
    const touched = [...this.remaining.entries()];
    if (!touched.length) return {};
    const [tightestKind, tightest] = touched.reduce((min, entry) => (entry[1] < min[1] ? entry : min));
    return {
      'X-RateLimit-Limit': String(this.limit(tightestKind)),
      'X-RateLimit-Remaining': String(tightest),
      'X-RateLimit-Reset': String(Math.floor(this.resetAt.getTime() / 1000)),
      'RateLimit-Policy': POLICIES[this.tier],
      RateLimit: `"${tightestKind}";r=${tightest};t=${this.secondsToReset}`,
    };
  }
}
