/**
 * libuv's thread pool runs scrypt beside the file-system work, DNS lookups and zlib of the whole
 * process: the password queue (src/services/password-queue.ts) keeps its jobs below the pool's
 * size, and the server sizes the pool so that the usual four threads stay for everything else.
 */
const LIBUV_DEFAULT_SIZE = 4;
/** Concurrent scrypt jobs at most: on two cores, two already take all the CPU they can. */
const PASSWORD_JOBS = 2;

/**
 * Sets UV_THREADPOOL_SIZE unless the operator did. libuv reads it once, when the pool first starts
 * (the first asynchronous fs, crypto or DNS call): this must run before any, at the top of a
 * CommonJS entry point. An ES module entry is too late: the loader has read files by then.
 */
export function sizeThreadPool(env: NodeJS.ProcessEnv = process.env): void {
  env.UV_THREADPOOL_SIZE ??= String(LIBUV_DEFAULT_SIZE + PASSWORD_JOBS);
}

/** How many scrypt jobs may run at once in a pool of this environment's size: two, leaving at least two threads to the rest. */
export function passwordJobs(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE) || LIBUV_DEFAULT_SIZE;
  return Math.max(1, Math.min(PASSWORD_JOBS, size - 2));
}
