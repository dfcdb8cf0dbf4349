import { constants } from 'node:os';
import { logLastLine, type Logger } from './logger';

/** The longest a graceful shutdown may take; past it the process exits with status 1. */
export const SHUTDOWN_DEADLINE_MS = 10_000;
/**
 * Ctrl-C under `npm start` delivers SIGINT twice within milliseconds: the terminal sends it to the
 * whole process group, and npm forwards its own copy. A repeat of the first signal this soon is
 * that echo, not an operator asking to hurry.
 */
export const SIGNAL_ECHO_MS = 1_000;

export interface ShutdownOnSignalsOptions {
  /** stops accepting, finishes in-flight work, flushes and closes everything */
  close(): Promise<void>;
  logger: Logger;
  deadlineMs?: number;
  /** where signals arrive and how the process ends: the process itself, outside unit tests */
  target?: Pick<NodeJS.Process, 'on'>;
  exit?: (code: number) => void;
}

/**
 * SIGTERM or SIGINT starts a graceful shutdown, bounded by a deadline; a second signal exits at
 * once (status 128 + the signal's number, as a shell reports a process the signal killed).
 */
export function shutDownOnSignals(options: ShutdownOnSignalsOptions): void {
  const { close, logger, deadlineMs = SHUTDOWN_DEADLINE_MS, target = process, exit = (code: number) => process.exit(code) } = options;
  let first: { signal: NodeJS.Signals; at: number } | null = null;

  const onSignal = (signal: NodeJS.Signals) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < SIGNAL_ECHO_MS) return;
      logger.warn({ signal }, 'second signal: exiting without finishing the shutdown');
      exit(128 + constants.signals[signal]);
      return;
    }
    first = { signal, at: Date.now() };
    logger.info({ signal }, 'signal received');
    // not unref'd: a shutdown stuck with nothing else scheduled must still end in a failure, not a quiet exit 0
    const deadline = setTimeout(() => {
      logger.error({ deadlineMs }, 'shutdown did not finish in time: exiting');
      exit(1);
    }, deadlineMs);
    close().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (error: Error) => {
        clearTimeout(deadline);
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  target.on('SIGTERM', onSignal);
  target.on('SIGINT', onSignal);
}

export interface ExitOnCrashOptions {
  logger: Logger;
  /** where crashes are reported and how the process ends: the process itself, outside unit tests */
  target?: Pick<NodeJS.Process, 'on'>;
  exit?: (code: number) => void;
}

/**
 * An uncaught exception or an unhandled promise rejection ends the process with status 1, after
 * one fatal line (the error, its stack; the logger's redaction applies) written out before the
 * exit. Nothing else is started: after such an error the state is unknown, and a graceful
 * shutdown could hang on it or write from it; the supervisor restarts a clean process. (To a pipe,
 * the event loop turns until the queued lines are out, in order: milliseconds.)
 */
export function exitOnCrash(options: ExitOnCrashOptions): void {
  const { logger, target = process, exit = (code: number) => process.exit(code) } = options;
  let crashed = false;
  const crash = (error: unknown, message: string) => {
    if (crashed) return;
    crashed = true;
    try {
      logLastLine(logger, { err: error }, message, () => exit(1));
    } catch {
      exit(1);
    }
  };
  target.on('uncaughtException', (error) => crash(error, 'uncaught exception: exiting'));
  target.on('unhandledRejection', (reason) => crash(reason, 'unhandled promise rejection: exiting'));
}
