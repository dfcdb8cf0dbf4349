/** How often an hourly job looks whether a new hour has begun (runClaimedPeriod says whether it is its to run). */
const HOURLY_LOOK_MS = 60_000;

/**
 * The schedule of a recurring job: a look after each `nextDelayMs()` (measured from the end of the
 * look before, so a job whose next time depends on how the last run went can say so), and one run
 * at a time whoever asks (the timer, or a test or an operator through runDue), so a run never
 * overlaps the one before it. `onError` hears a failed scheduled run; runDue's callers get their
 * own run's error.
 */
export class JobTicker<Run> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly runOnce: () => Promise<Run>,
    private readonly onError: (error: Error) => void,
    private readonly nextDelayMs: () => number = () => HOURLY_LOOK_MS,
  ) {}

  /** stop() was called: a run that starts now should not. */
  get stopping(): boolean {
    return this.stopped;
  }

  runDue(): Promise<Run> {
    const run = this.running.then(() => this.runOnce());
    this.running = run.catch(() => undefined);
    return run;
  }

  start(firstDelayMs = this.nextDelayMs()): void {
    this.schedule(firstDelayMs);
  }

  /** No more looks; resolves once the run under way, if any, has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runDue()
        .catch(this.onError)
        .finally(() => this.schedule(this.nextDelayMs()));
    }, delayMs);
    this.timer.unref();
  }
}
