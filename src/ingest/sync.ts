import type { DataSource } from 'typeorm';
import { SyncStateEntity } from '../db/entities/sync-state.entity';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { BillSource } from './bill-source';
import { BillsApiSource } from './bills-api/bills-api.source';
import { ingest, type IngestReport } from './ingest.service';
import { ingestProgressReporter } from './progress';
import { SnapshotSource } from './snapshot.source';

/** The snapshot folder when one is given or configured, else the live Bills API. */
export function billSourceFor(config: Pick<Config, 'snapshotDir' | 'billsApiUrl' | 'membersApiUrl'>, snapshotDir?: string): BillSource {
  const dir = snapshotDir ?? config.snapshotDir;
  return dir ? new SnapshotSource(dir) : new BillsApiSource({ baseUrl: config.billsApiUrl, membersApiUrl: config.membersApiUrl });
}

/** Ingests from a source with progress reporting; never retrains anything. `today`: the service's day (see IngestOptions). */
export async function syncBills(dataSource: DataSource, source: BillSource, logger: Logger, signal?: AbortSignal, today?: string): Promise<IngestReport> {
  logger.info({ source: source.name }, 'ingest started');
  const progress = ingestProgressReporter(logger);
  try {
    const report = await ingest(dataSource, source, { onProgress: (p) => progress.update(p), signal, today });
    logger.info(report, 'ingest finished');
    for (const s of report.sessionsEndInferred) {
      logger.warn(s, `session ${s.name} has ended (session ${s.nextSessionId} appeared): its end date ${s.endDate} is inferred, not known`);
    }
    if (report.billsSkipped) logger.warn({ skipped: report.skipped }, `ingest skipped ${report.billsSkipped} bill(s) it could not read; the next sync tries them again`);
    return report;
  } finally {
    progress.stop();
  }
}

/** Whether any sync has ever completed: a first start, or one cut off mid-ingest, has none. */
export async function hasCompletedSync(dataSource: DataSource): Promise<boolean> {
  return (await dataSource.getRepository(SyncStateEntity).count()) > 0;
}

/** The as-of date of the data being served: the latest completed sync's (null after a live API sync). */
export async function servedDataAsOf(dataSource: DataSource): Promise<string | null> {
  const latest = await dataSource.getRepository(SyncStateEntity).find({ order: { completedAt: 'DESC' }, take: 1 });
  return latest[0]?.asOf ?? null;
}
