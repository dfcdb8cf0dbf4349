/**
 * Loaded into a benchmarked server (`node --expose-gc --require …/bench-gc-probe.js`): SIGUSR2 runs a
 * full collection, so that the benchmark reads the heap the server keeps, not the garbage a burst
 * of requests left for V8 to collect when it sees fit.
 */
process.on('SIGUSR2', () => (globalThis as { gc?: () => void }).gc?.());
