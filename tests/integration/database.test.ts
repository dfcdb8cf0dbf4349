import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { AccountEntity } from '../../src/db/entities/account.entity';
import { openDatabase } from '../../src/db/database';
import { DataDirLock, DataDirLockedError } from '../../src/db/data-dir-lock';
import { SessionMutex } from '../../src/db/exclusive-pglite-pool';
import { openTestDatabase, usingPostgres } from '../support/test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A transaction that rolls back while another caller inserts: the other caller's row must survive. */
async function rollbackWhileConcurrentInsert(dataSource: DataSource): Promise<string[]> {
  const rollingBack = dataSource.transaction(async (manager) => {
    await manager.insert(AccountEntity, { email: 'rolled-back@example.com', tier: 'pilot' });
    await sleep(50);
    throw new Error('rollback on purpose');
  });
  const concurrent = (async () => {
    await sleep(10);
    await dataSource.getRepository(AccountEntity).insert({ email: 'concurrent@example.com', tier: 'pilot' });
  })();
  await expect(rollingBack).rejects.toThrow('rollback on purpose');
  await concurrent;
  return (await dataSource.getRepository(AccountEntity).find()).map((a) => a.email);
}

describe('concurrent transactions', () => {
  it('keep a concurrent insert when another transaction rolls back', async () => {
    const db = await openTestDatabase();
    try {
      expect(await rollbackWhileConcurrentInsert(db.dataSource)).toEqual(['concurrent@example.com']);
    } finally {
      await db.close();
    }
  });

  (usingPostgres() ? it.skip : it)('would lose that insert with the plain typeorm-pglite pool (why the exclusive pool exists)', async () => {
    const plain = new DataSource({ type: 'postgres', driver: new PGliteDriver().driver, entities: [AccountEntity], synchronize: true } as never);
    await plain.initialize();
    try {
      expect(await rollbackWhileConcurrentInsert(plain)).toEqual([]);
    } finally {
      await plain.destroy();
    }
  });
});

describe('a run of statements', () => {
  // on the embedded database a statement answers within the caller's chain of promises: without a turn between statements, a transaction held every request until it committed
  it('lets the event loop run other work between its statements', async () => {
    const db = await openTestDatabase();
    try {
      let statementsDone = 0;
      let committed = false;
      const seenBetween: number[] = [];
      const otherWork = () => {
        seenBetween.push(statementsDone);
        if (!committed) setImmediate(otherWork);
      };
      setImmediate(otherWork);
      await db.dataSource.transaction(async (manager) => {
        for (let i = 0; i < 20; i++) {
          await manager.query('SELECT 1');
          statementsDone += 1;
        }
      });
      committed = true;
      expect(seenBetween.some((done) => done > 0 && done < 20)).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('SessionMutex', () => {
  it('grants the session in request order, one holder at a time, and tolerates a double release', async () => {
    const mutex = new SessionMutex();
    const order: string[] = [];
    const hold = async (name: string, ms: number) => {
      const release = await mutex.acquire();
      order.push(`${name}+`);
      await sleep(ms);
      order.push(`${name}-`);
      release();
      release();
    };
    await Promise.all([hold('a', 20), hold('b', 1), hold('c', 5)]);
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
  });
});

describe('data directory lock', () => {
  it('refuses a second opener while the first holds it, and frees it on release', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-lock-'));
    const lock = DataDirLock.acquire(dir);
    expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
    expect(() => DataDirLock.acquire(dir)).toThrow(new RegExp(`in use by process ${process.pid}`));
    lock.release();
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock left by a process that died', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-lock-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(path.join(dir, 'bill-progress.lock'), JSON.stringify({ pid: Number(dead), hostname: os.hostname(), since: '2020-01-01T00:00:00Z' }));
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock that carries this process id but was not taken by this process (a restarted container)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-lock-'));
    writeFileSync(path.join(dir, 'bill-progress.lock'), JSON.stringify({ pid: process.pid, hostname: os.hostname(), since: '2020-01-01T00:00:00Z', token: 'earlier-life' }));
    DataDirLock.acquire(dir).release();
  });

  it('respects a fresh lock from another host, and takes over one that stopped its heartbeat', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-lock-'));
    const file = path.join(dir, 'bill-progress.lock');
    writeFileSync(file, JSON.stringify({ pid: 1, hostname: 'another-host', since: '2020-01-01T00:00:00Z', token: 'x' }));
    expect(() => DataDirLock.acquire(dir)).toThrow(/in use by process 1 on another-host/);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(file, twoMinutesAgo, twoMinutesAgo);
    DataDirLock.acquire(dir).release();
  });

  it('keeps the data directory private to its owner', () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'bp-lock-')), 'data');
    DataDirLock.acquire(dir).release();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  (usingPostgres() ? it.skip : it)('keeps an embedded database across close and reopen', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-data-'));
    const first = await openDatabase({ dataDir: dir });
    await first.dataSource.getRepository(AccountEntity).insert({ email: 'kept@example.com', tier: 'pro' });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    try {
      expect(await second.dataSource.getRepository(AccountEntity).findOneBy({ email: 'kept@example.com' })).toMatchObject({ tier: 'pro' });
      const pending = await second.dataSource.showMigrations();
      expect(pending).toBe(false);
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it('has migrations that build exactly the schema the entities describe', async () => {
  const db = await openTestDatabase();
  try {
    const diff = await db.dataSource.driver.createSchemaBuilder().log();
    expect(diff.upQueries.map((q) => q.query)).toEqual([]);
  } finally {
    await db.close();
  }
});
