import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { types as pgliteTypes } from '@electric-sql/pglite';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';
import { DataDirLock } from './data-dir-lock';
import { dumpPGlite, exclusivePGliteDriver } from './exclusive-pglite-pool';
import { ENTITIES } from './entity-list';
import { MIGRATIONS } from './migrations/migrations';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseOptions {
  /** a PostgreSQL URL; when absent the embedded PGlite database is used */
  databaseUrl?: string;
  /** where PGlite keeps its files; null keeps them in memory (tests) */
  dataDir: string | null;
  poolSize?: number;
  /** build the schema from the entities instead of migrations: unit tests only */
  synchronize?: boolean;
  /** start PGlite from a dump made by `dumpDataDir` (fast test fixtures, `npm run admin -- restore`) */
  loadDataDir?: Blob;
  /** with loadDataDir and a dataDir: a database already there is moved aside (see Database.setAside) instead of refused */
  replaceExisting?: boolean;
}

export interface Database {
  kind: DatabaseKind;
  dataSource: DataSource;
  /** the embedded database as a gzipped tar (PGlite only: PostgreSQL has pg_dump) */
  dump?: () => Promise<Blob>;
  /** where a database replaced by `replaceExisting` was moved */
  setAside?: string;
  close(): Promise<void>;
}

/** Also bounds the wait for a free connection of the pool: past it the request is a 503. */
const POOL_CONNECTION_TIMEOUT_MS = 1_000;

const DATE_OID = 1082;
const DATE_ARRAY_OID = 1182;
const TEXT_ARRAY_OID = 1009;

/**
 * Dates stay 'YYYY-MM-DD' strings end to end: a Date object would shift with the process time zone.
 * node-postgres is loaded only for PostgreSQL (typeorm takes the same module), so an embedded
 * database, as the admin CLI opens, does not load it.
 */
async function loadPostgresDriver(): Promise<void> {
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(DATE_OID, (value: string) => value);
  pg.types.setTypeParser(DATE_ARRAY_OID as typeof pg.types.builtins.DATE, pg.types.getTypeParser(TEXT_ARRAY_OID as typeof pg.types.builtins.TEXT));
}

/** Where a data directory keeps PGlite's own files. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: options.synchronize ?? false,
    logging: false,
  };

  if (options.databaseUrl) {
    await loadPostgresDriver();
    const dataSource = new DataSource({
      ...common,
      url: options.databaseUrl,
      // A connection that cannot be had within a second fails (503) rather than holding the request.
      extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS },
    } as DataSourceOptions);
    try {
      await dataSource.initialize();
      if (!options.synchronize) await migrateWithLock(dataSource);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
      throw error;
    }
    return { kind: 'postgres', dataSource, close: () => dataSource.destroy() };
  }

  const lock = options.dataDir ? DataDirLock.acquire(options.dataDir) : null;
  let setAside: string | undefined;
  try {
    if (options.dataDir && options.loadDataDir && options.replaceExisting) setAside = setAsideExisting(options.dataDir);
    const driver = exclusivePGliteDriver({
      dataDir: options.dataDir ? pgliteDir(options.dataDir) : undefined,
      loadDataDir: options.loadDataDir,
      parsers: { [pgliteTypes.DATE]: (value: string) => value },
    });
    const dataSource = new DataSource({ ...common, driver } as DataSourceOptions);
    await dataSource.initialize();
    if (!options.synchronize) await dataSource.runMigrations({ transaction: 'each' });
    return {
      kind: 'pglite',
      dataSource,
      dump: dumpPGlite,
      setAside,
      close: async () => {
        try {
          if (dataSource.isInitialized) await dataSource.destroy();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    // a dump that could not be loaded leaves the data directory as it was
    if (setAside && options.dataDir) {
      rmSync(pgliteDir(options.dataDir), { recursive: true, force: true });
      renameSync(setAside, pgliteDir(options.dataDir));
    }
    lock?.release();
    throw error;
  }
}

/** Moves the PGlite files of a data directory aside (kept, never deleted); returns where, or undefined when there were none. */
function setAsideExisting(dataDir: string): string | undefined {
  const current = pgliteDir(dataDir);
  if (!existsSync(current)) return undefined;
  const aside = `${current}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(current, aside);
  return aside;
}

const MIGRATION_LOCK_KEY = 74_110_001;

/** Several instances may start together on one PostgreSQL: only one migrates at a time. */
async function migrateWithLock(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
