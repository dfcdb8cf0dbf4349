/**
 * "Today" for everything that says today: the day a replay moved to, until restart; else
 * SERVICE_DATE when set; else, when serving a snapshot, the snapshot's asOf (a service serving the
 * 2021-12-31 snapshot lives on that day); else the UTC date.
 */
export class ServiceClock {
  private dataAsOf: string | null = null;
  private replayDay: string | null = null;

  constructor(
    private readonly fixedDate: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Called when the served data's as-of date is known or changes (after an ingest). */
  setDataAsOf(asOf: string | null): void {
    this.dataAsOf = asOf;
  }

  /** A replay moves the day (forward or back) through its period; the last day stays until restart. */
  moveTo(day: string): void {
    this.replayDay = day;
  }

  /** Whether a replay has moved the day: what is computed for it was not published on that day. */
  replayed(): boolean {
    return this.replayDay !== null;
  }

  today(): string {
    return this.replayDay ?? this.fixedDate ?? this.dataAsOf ?? this.now().toISOString().slice(0, 10);
  }
}
