import { Writable } from 'node:stream';
import request from 'supertest';
import type { Tier } from '../../src/db/entities/account.entity';
import { type App, buildApp } from '../../src/app';
import { ServiceClock } from '../../src/common/clock';
import { DataFreshness } from '../../src/ingest/freshness';
import { ingest } from '../../src/ingest/ingest.service';
import { billSourceFor } from '../../src/ingest/sync';
import type { Lifecycle } from '../../src/jobs/lifecycle';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import type { Services } from '../../src/services/services';
import type { UrlPolicy } from '../../src/events/webhooks/url-safety';
import { makeSnapshot, SAMPLE_BILL_IDS } from './fixtures';
import { openTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  db: TestDatabase;
  app: App;
  services: Services;
  /** the server's lifecycle, when the test asked for it (`live`) */
  lifecycle?: Lifecycle;
  /** every log line the app wrote, for checks that secrets never reach the logs */
  logLines: string[];
  http(): ReturnType<typeof request>;
  /** a new account of the tier with one API key; returns the key */
  userWithKey(tier: Tier, email?: string): Promise<string>;
  graphql(query: string, options?: { key?: string; variables?: Record<string, unknown> }): Promise<request.Response>;
  /** moves the real-time clock quotas run on */
  setNow(now: Date): void;
  accountIdOf(email: string): Promise<number>;
  close(): Promise<void>;
}

let emails = 0;

/** The app in-process on its own database, loaded with a few real bills. */
/** Small, fast networks for tests: enough to exercise training and serving, not to predict well. */
export const TEST_TRAINING = { iterations: 3, hiddenLayers: [4] };

/** scrypt at 1/32 of the production cost: tests check what passwords do, not how hard they are to crack (tests/unit/src/services/password.test.ts checks that). */
export const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 };

/**
 * `live`: the server's lifecycle as `npm start` runs it (src/jobs/lifecycle.ts), on a Bills API:
 * the database starts empty, the first start ingests from the API and trains the model (awaited),
 * then scheduled syncs every `syncIntervalSeconds`, retrains, vintages and the state poll run as
 * the options say (each off unless given). Off: the bills are loaded once and nothing runs by itself.
 */
export interface LiveOptions {
  billsApiUrl: string;
  /** the fake's Members API (sponsors' party histories) */
  membersApiUrl: string;
  /** SERVICE_DATE */
  serviceDate?: string;
  syncIntervalSeconds?: number;
  retrainIntervalDays?: number;
  vintageTraining?: boolean;
  statePollMs?: number;
}

/** `anonRateLimit`: the per-address limit of requests without a valid key or failing (off unless given: tests make many from one address). */
/** `snapshotDir`: a snapshot folder to load instead of the named real bills. */
/** `deliverWebhooks`: the app's delivery worker sends the outbox, as in production (off: tests that drive a worker of their own). */
/** `deliverMail`: the app's mail worker sends the mail outbox (to `smtpUrl`, else the local mailbox). */
/** `live`: the lifecycle of `npm start` on a Bills API (see LiveOptions). */
export async function startTestApp(options: { billIds?: number[]; snapshotDir?: string; trainModel?: boolean; redisUrl?: string; burstLimit?: number; anonRateLimit?: number; corsOrigins?: string[]; metricsToken?: string; webhookUrlPolicy?: UrlPolicy; deliverWebhooks?: boolean; deliverMail?: boolean; smtpUrl?: string; publicUrl?: string; live?: LiveOptions } = {}): Promise<TestApp> {
  const { live } = options;
  const db = await openTestDatabase();
  if (!live) await ingest(db.dataSource, new SnapshotSource(options.snapshotDir ?? makeSnapshot(options.billIds ?? SAMPLE_BILL_IDS)));
  const logLines: string[] = [];
  const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }) as never);
  const clock = new ServiceClock(live?.serviceDate);
  if (!live) clock.setDataAsOf('2021-12-31');
  let now = new Date('2026-11-22T12:00:00Z');
  const built = await buildApp({
    dataSource: db.dataSource,
    embeddedDatabase: db.kind === 'pglite',
    clock,
    readiness: new Readiness(),
    freshness: live && new DataFreshness('live', live.syncIntervalSeconds ?? 0),
    logger,
    trainingOptions: TEST_TRAINING,
    passwordCost: TEST_PASSWORD_COST,
    redisUrl: options.redisUrl,
    now: () => now,
    burstLimit: { max: options.burstLimit ?? 1000, windowSeconds: 10 },
    webhooks: { urlPolicy: options.webhookUrlPolicy },
    anonRateLimit: options.anonRateLimit,
    corsOrigins: options.corsOrigins,
    metricsToken: options.metricsToken,
    publicUrl: options.publicUrl,
    mail: { smtpUrl: options.smtpUrl, from: 'Bill Progress <alerts@bills.test>' },
    background: {
      webhookDelivery: options.deliverWebhooks,
      mailDelivery: options.deliverMail,
      lifecycle: live && {
        billSource: (snapshotDir) => billSourceFor({ billsApiUrl: live.billsApiUrl, membersApiUrl: live.membersApiUrl, snapshotDir: undefined }, snapshotDir),
        syncIntervalSeconds: live.syncIntervalSeconds ?? 0,
        retrainIntervalDays: live.retrainIntervalDays ?? 0,
        vintageTraining: live.vintageTraining ?? false,
        statePollMs: live.statePollMs ?? 0,
      },
    },
  });
  const { services, http: app, lifecycle } = built;
  if (!live) {
    await services.freshness.load(db.dataSource);
    if (options.trainModel) await services.models.train();
    else await services.models.start({ trainIfMissing: false });
  }
  await built.start();
  await lifecycle?.modelReady();
  const http = () => request(app.httpServer);
  return {
    db,
    app,
    services,
    lifecycle,
    logLines,
    http,
    async userWithKey(tier, email = `user${++emails}-${Date.now()}@example.com`) {
      await services.accounts.create(email, tier === 'free' ? 'pilot' : tier);
      const key = await services.apiKeys.create(email);
      if (tier === 'free') await services.accounts.setTier(email, 'free');
      return key.api_key;
    },
    graphql(query, { key, variables } = {}) {
      const req = http().post('/graphql').set('content-type', 'application/json');
      if (key) req.set('authorization', `Bearer ${key}`);
      return req.send({ query, variables });
    },
    setNow(next) {
      now = next;
    },
    async accountIdOf(email) {
      return (await services.accounts.findByEmail(email)).id;
    },
    async close() {
      await built.close();
      await db.close();
    },
  };
}
