// first: refuses an unsupported Node.js and sets production mode before any library loads
import './server-preamble';
import 'reflect-metadata';
import { loadConfig } from './config';
import { createLogger, standardOutput } from './logger';
import { exitOnCrash, shutDownOnSignals } from './shutdown';
import { startServer } from './start-server';

/** The composition root: configuration, logger, server, and the signals that stop it. */
function main(): void {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`bill-progress: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel, standardOutput());
  exitOnCrash({ logger });
  // aborted by a signal that arrives while start-up still waits for an unreachable PostgreSQL
  const starting = new AbortController();
  const started = startServer(config, logger, { signal: starting.signal });
  // Installed before the database opens: a signal during start-up waits for it, then shuts down cleanly.
  shutDownOnSignals({
    logger,
    close: () => {
      starting.abort();
      return started.then(
        (server) => server.close(),
        () => undefined,
      );
    },
  });
  started.catch((error: Error) => {
    if (starting.signal.aborted) return;
    process.stderr.write(`bill-progress: ${error.message}\n`);
    process.exit(1);
  });
}

main();
