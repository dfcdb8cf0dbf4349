/** How often an hourly job looks whether a new hour has begun (runClaimedHour says whether it is its to run). */
const TICK_MS = 60_000;

/**
 * The schedule of an hourly job: a look every TICK_MS, and one run at a time whoever asks (the
 * timer, or a test or an operator through runDue), so a run never overlaps the one before it.
 * `onError` hears a failed scheduled run; runDue's callers get their own run's error.
 */
export class HourlyTicker<Run> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runOnce: () => Promise<Run>,
    private readonly onError: (error: Error) => void,
  ) {}

  runDue(): Promise<Run> {
    const run = this.running.then(() => this.runOnce());
    this.running = run.catch(() => undefined);
    return run;
  }

  start(): void {
    this.timer = setInterval(() => void this.runDue().catch(this.onError), TICK_MS);
    this.timer.unref();
  }

  /** No more looks; resolves once the run under way, if any, has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
