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

/** A place in the password queue's line, held for a job to come (PasswordQueue.hold). */
export interface HeldPlace {
  /** Runs the job in the place (refused never: the place was taken). */
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Gives the place up, the job not coming. */
  release(): void;
}

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
  private readonly held: Record<PasswordJob, number> = { verify: 0, hash: 0 };

  constructor(private readonly options: PasswordQueueOptions) {}

  run<T>(kind: PasswordJob, job: () => Promise<T>): Promise<T> {
    if (this.running < this.options.concurrency) return this.start(job);
    if (this.isFull(kind)) return Promise.reject(busy(kind));
    return this.enqueue(kind, job);
  }

  /**
   * A place in the line taken now, for a job that comes after other work (a sign-up's limit check,
   * a round trip to the store): refused at once when the line is full, so a flood of such requests
   * is turned away before that work, not after it. Counts as waiting until it is used or released.
   */
  hold(kind: PasswordJob): HeldPlace {
    if (this.isFull(kind)) throw busy(kind);
    this.held[kind] += 1;
    let left = false;
    const leave = () => {
      if (!left) (left = true), (this.held[kind] -= 1);
    };
    return {
      run: (job) => (leave(), this.enqueue(kind, job)),
      release: leave,
    };
  }

  private enqueue<T>(kind: PasswordJob, job: () => Promise<T>): Promise<T> {
    if (this.running < this.options.concurrency) return this.start(job);
    return new Promise<T>((resolve, reject) => this.waiting[kind].push(() => void this.start(job).then(resolve, reject)));
  }

  private isFull(kind: PasswordJob): boolean {
    return this.waiting[kind].length + this.held[kind] >= this.options.maxWaiting[kind];
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
