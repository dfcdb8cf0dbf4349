import { AppError } from '../errors';
import { passwordJobs } from '../common/thread-pool';

/** A log-in's check of a password, or the hash of a new one (sign-up, change, reset). */
export type PasswordJob = 'verify' | 'hash';

export interface PasswordQueueOptions {
  /** scrypt jobs running at once */
  concurrency: number;
  /** jobs of each kind that may wait; one more is refused at once */
  maxWaiting: Record<PasswordJob, number>;
}

/** Seconds a refused job is told to wait: a few hashes' time. */
const RETRY_AFTER_SECONDS = 5;

const BUSY: Record<PasswordJob, string> = {
  verify: 'The server is busy checking passwords: too many log-ins are waiting; retry in a few seconds',
  hash: 'The server is busy checking passwords: too many sign-ups and password changes are waiting; retry in a few seconds',
};

const busy = (kind: PasswordJob) => new AppError('SERVICE_UNAVAILABLE', BUSY[kind], { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

/**
 * scrypt's jobs, a few at a time, so a flood of them cannot take libuv's whole thread pool (and
 * with it the file system and DNS) nor make a log-in wait behind it. Log-ins go first: whoever
 * comes to log in passes every waiting sign-up. Each kind waits in a bounded line; past it a job is
 * refused at once with 503 (the server is busy, not the client at fault) and Retry-After, since a
 * job that would wait longer than a client does is work for no one.
 */
export class PasswordQueue {
  private running = 0;
  private readonly waiting: Record<PasswordJob, (() => void)[]> = { verify: [], hash: [] };

  constructor(private readonly options: PasswordQueueOptions) {}

  run<T>(kind: PasswordJob, job: () => Promise<T>): Promise<T> {
    if (this.running < this.options.concurrency) return this.start(job);
    if (this.isFull(kind)) return Promise.reject(busy(kind));
    return new Promise<T>((resolve, reject) => this.waiting[kind].push(() => void this.start(job).then(resolve, reject)));
  }

  /** Throws the refusal a job of this kind would meet now: for a caller with work to do before its job that a refusal would waste. */
  refuseWhenFull(kind: PasswordJob): void {
    if (this.running >= this.options.concurrency && this.isFull(kind)) throw busy(kind);
  }

  private isFull(kind: PasswordJob): boolean {
    return this.waiting[kind].length >= this.options.maxWaiting[kind];
  }

  /** Jobs waiting of each kind (for tests and metrics). */
  get waitingCount(): Record<PasswordJob, number> {
    return { verify: this.waiting.verify.length, hash: this.waiting.hash.length };
  }

  private async start<T>(job: () => Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await job();
    } finally {
      this.running -= 1;
      (this.waiting.verify.shift() ?? this.waiting.hash.shift())?.();
    }
  }
}

/**
 * The process's one queue: there is one thread pool. 200 log-ins wait at most a few seconds at the
 * production cost; 20 sign-ups are what an honest burst needs, not what a flood wants.
 */
export const passwordQueue = new PasswordQueue({ concurrency: passwordJobs(), maxWaiting: { verify: 200, hash: 20 } });
