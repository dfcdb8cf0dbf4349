import { SingleBar, Presets } from 'cli-progress';
import type { Logger } from '../logger';
import type { IngestProgress } from './ingest.service';

export interface ProgressReporter {
  update(progress: IngestProgress): void;
  stop(): void;
}

/** A progress bar on a terminal; otherwise a log line per tenth of the way (or per batch when the total is unknown). */
export function ingestProgressReporter(logger: Logger, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (stream.isTTY) {
    const bar = new SingleBar({ stream, format: 'ingest [{bar}] {value}/{total} bills, {changed} changed', hideCursor: true }, Presets.shades_classic);
    let started = false;
    return {
      update: (p) => {
        if (!started) {
          bar.start(p.total ?? p.done, 0, { changed: 0 });
          started = true;
        }
        if (p.total === null) bar.setTotal(p.done);
        bar.update(p.done, { changed: p.changed });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    update: (p) => {
      const tenth = p.total ? Math.floor((10 * p.done) / p.total) : p.done;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      logger.info({ done: p.done, total: p.total, changed: p.changed }, 'ingest progress');
    },
    stop: () => {},
  };
}
