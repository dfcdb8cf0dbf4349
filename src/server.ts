import 'reflect-metadata';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './start-server';

/** The composition root: configuration, logger, server, and the signals that stop it. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'signal received');
      server.close().then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bill-progress: ${error.message}\n`);
  process.exit(1);
});
