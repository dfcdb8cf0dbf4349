import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../common/clock';
import type { Logger } from '../logger';
import type { Readiness } from '../health/readiness';
import type { AccountService } from './account.service';
import { createAccountServices } from './account-services';
import type { ApiKeyService } from './api-key.service';
import { AlertService } from './alert.service';
import { AlertEvaluation } from './alert-evaluation';
import { BillService } from './bill.service';
import { WatchlistService } from './watchlist.service';
import { SessionService } from './session.service';
import { DEFAULT_LOGIN_THROTTLE, LoginThrottle } from './login-throttle';
import { DEFAULT_SIGN_UP_LIMIT, SignUpLimit } from './attempt-limit';
import type { ScryptCost } from './password';
import { ModelService } from './model.service';
import { PredictionService } from './prediction.service';
import { SqlLoginFailureStore } from '../attempts/login-failure-store';
import { QuotaService } from '../quota/quota.service';
import { RedisLoginFailureStore } from '../attempts/redis-login-failure-store';
import { RedisQuotaStore } from '../quota/redis-quota-store';
import { BurstLimiter, type BurstLimitOptions } from '../quota/burst-limit';
import type { EventSink } from '../events/event';
import { createEvents, type Events } from '../events/events';
import { EventRefresh } from './events-refresh';
import { ForecastBackfill } from './forecasts-of-record';
import { TrackRecordService } from './track-record';
import { loadSecretBox, type SecretBox } from '../events/webhooks/secret-box';
import type { UrlPolicy } from '../events/webhooks/url-safety';
import { WebhookService } from './webhook.service';
import { DataFreshness } from '../ingest/freshness';
import { WatchlistFeedService } from './watchlist-feed.service';
import { WatchlistCalendarService } from './watchlist-calendar';
import { WatchlistEventsFeed } from './watchlist-events-feed';
import { createMail, DEFAULT_MAIL_FROM, type Mail } from '../events/mail/mail';
import type { MailTransport } from '../events/mail/transport';
import { AccountEmailService } from './account-email.service';
import { mailAlertsSink } from '../events/mail/alerts';
import { UnsubscribeTokens } from '../events/mail/unsubscribe';
import { WatchlistNotificationService } from './watchlist-notification.service';
import { DigestService } from './digest.service';

/** The domain API every door (GraphQL, REST, admin, CLI) uses; none of it sees a request. */
export interface Services {
  dataSource: DataSource;
  clock: ServiceClock;
  readiness: Readiness;
  /** how fresh the served data is: the source, its date, the last syncs (/readyz, serviceStatus) */
  freshness: DataFreshness;
  logger: Logger;
  accounts: AccountService;
  apiKeys: ApiKeyService;
  /** dashboard accounts' passwords and browser sessions */
  sessions: SessionService;
  bills: BillService;
  models: ModelService;
  predictions: PredictionService;
  /** the forecasts of record before the service published them, from the vintages (issue 35); the live ones are the events refresh's */
  forecastBackfill: ForecastBackfill;
  /** the public track record: the forecasts of record scored as outcomes arrive (issue 35) */
  trackRecord: TrackRecordService;
  quotas: QuotaService;
  burstLimiter: BurstLimiter;
  watchlists: WatchlistService;
  alerts: AlertService;
  /** whether an account's thresholds fire now (the alert check) */
  alertEvaluation: AlertEvaluation;
  webhooks: WebhookService;
  /** the events module (src/events/events.ts: event log, webhook outbox and its delivery worker, bus) with the refresh that emits into it */
  events: Events & { refresh: EventRefresh };
  /** watchlists' secret feed addresses, and the calendar and Atom feed they open (issue 33) */
  feeds: { tokens: WatchlistFeedService; calendar: WatchlistCalendarService; events: WatchlistEventsFeed };
  /** the email channel (src/events/mail/: outbox, transport, worker) */
  mail: Mail;
  /** accounts' email status, verification links and local mailbox */
  accountEmail: AccountEmailService;
  /** each watchlist's email setting, and the one-click unsubscribe */
  notifications: WatchlistNotificationService;
  /** daily and weekly digest emails, and the preview of an account's next one */
  digests: DigestService;
}

export interface ServiceDeps {
  dataSource: DataSource;
  /** PGlite, owned by this process alone (see QuotaService) */
  embeddedDatabase: boolean;
  clock: ServiceClock;
  readiness: Readiness;
  /** default: a snapshot served without scheduled syncs */
  freshness?: DataFreshness;
  logger: Logger;
  /** smaller networks or fewer iterations, for tests */
  trainingOptions?: ConstructorParameters<typeof ModelService>[4];
  /** quota counters in Redis instead of the database */
  redisUrl?: string;
  /** the real time, for quotas (tests move it) */
  now?: () => Date;
  burstLimit?: BurstLimitOptions;
  /** webhook URL rules and the key sealing webhook secrets (a key of this process when not given) */
  webhooks?: { urlPolicy?: UrlPolicy; secretBox?: SecretBox };
  /** written in the transaction of each emitter of events (the refresh, an alert check), after the webhook outbox */
  eventSinks?: EventSink[];
  /** the Redis channel of the event bus when redisUrl is set (tests give each run its own) */
  eventChannel?: string;
  /** scrypt's cost for new passwords: lower only in tests (see src/services/password.ts) */
  passwordCost?: ScryptCost;
  /** PUBLIC_URL: the address the service is reached at, for links it gives out (feed addresses, bill pages) */
  publicUrl?: string;
  /** SMTP_URL and MAIL_FROM (the local mailbox without an SMTP URL); `transport`: a test's own */
  mail?: { smtpUrl?: string; from?: string; transport?: MailTransport };
}

export const DEFAULT_BURST_LIMIT: BurstLimitOptions = { max: 300, windowSeconds: 10 };

export function createServices({ trainingOptions, redisUrl, now, burstLimit, embeddedDatabase, webhooks, eventSinks, eventChannel, passwordCost, freshness, publicUrl = 'http://localhost:4000', mail: mailOptions, ...deps }: ServiceDeps): Services {
  const { accounts, apiKeys } = createAccountServices(deps.dataSource, { embedded: embeddedDatabase });
  const bills = new BillService(deps.dataSource, deps.clock);
  const models = new ModelService(deps.dataSource, deps.readiness, deps.clock, deps.logger, trainingOptions, undefined, !embeddedDatabase);
  const predictions = new PredictionService(deps.dataSource, models, deps.clock);
  const watchlists = new WatchlistService(deps.dataSource);
  const realNow = now ?? (() => new Date());
  const secretBox = webhooks?.secretBox ?? loadSecretBox({});
  const urlPolicy = webhooks?.urlPolicy ?? { allowPrivate: false };
  const mail = createMail({ dataSource: deps.dataSource, embedded: embeddedDatabase, logger: deps.logger, now, smtpUrl: mailOptions?.smtpUrl, from: mailOptions?.from ?? DEFAULT_MAIL_FROM, transport: mailOptions?.transport });
  const unsubscribeTokens = new UnsubscribeTokens(secretBox.subkey('watchlist email unsubscribe'));
  // instant alert emails are written beside the webhook outbox, in the emitter's transaction
  const mailAlerts = mailAlertsSink({ from: mail.from, publicUrl, tokens: unsubscribeTokens, enqueue: mail.enqueue, now: realNow });
  const pipeline = createEvents({
    dataSource: deps.dataSource,
    embedded: embeddedDatabase,
    logger: deps.logger,
    now,
    redisUrl,
    channel: eventChannel,
    sinks: [mailAlerts, ...(eventSinks ?? [])],
    afterCommit: () => mail.queued(),
    webhooks: { urlPolicy, secretBox, publicUrl },
  });
  // the emitter that follows the data; events know no service, so the two are joined here
  const refresh = new EventRefresh(deps.dataSource, { predictions, models }, deps.clock, { postgres: !embeddedDatabase, events: pipeline.log, logger: deps.logger, now });
  const events = {
    ...pipeline,
    refresh,
    async close() {
      await refresh.idle();
      await pipeline.close();
    },
  };
  const quotas = new QuotaService(deps.dataSource, { redisUrl, embedded: embeddedDatabase, readiness: deps.readiness, logger: deps.logger }, now);
  // log-in and sign-up attempts are kept beside the quota counters, so every instance counts the same ones
  const calendar = new WatchlistCalendarService(deps.dataSource, predictions, deps.clock, publicUrl);
  const feeds = { tokens: new WatchlistFeedService(deps.dataSource, watchlists, secretBox, publicUrl), calendar, events: new WatchlistEventsFeed(deps.dataSource, (id) => calendar.billPage(id)) };
  const loginFailures = quotas.store instanceof RedisQuotaStore ? new RedisLoginFailureStore(quotas.store) : new SqlLoginFailureStore(deps.dataSource);
  // verification resends are counted beside the log-in attempts, so every instance counts the same
  const accountEmail = new AccountEmailService(deps.dataSource, mail, publicUrl, loginFailures, realNow);
  return {
    ...deps,
    freshness: freshness ?? new DataFreshness('snapshot', 0),
    accounts,
    apiKeys,
    sessions: new SessionService(deps.dataSource, accounts, new LoginThrottle(DEFAULT_LOGIN_THROTTLE, loginFailures), new SignUpLimit(DEFAULT_SIGN_UP_LIMIT, loginFailures), Date.now, passwordCost, accountEmail),
    bills,
    models,
    predictions,
    forecastBackfill: new ForecastBackfill(deps.dataSource, predictions, models, deps.clock, deps.logger),
    trackRecord: new TrackRecordService(deps.dataSource, deps.clock, async () => (await predictions.checkDataState()).state),
    watchlists,
    alerts: new AlertService(deps.dataSource, watchlists),
    alertEvaluation: new AlertEvaluation(deps.dataSource, watchlists, predictions, events.log),
    quotas,
    burstLimiter: new BurstLimiter(burstLimit ?? DEFAULT_BURST_LIMIT),
    webhooks: new WebhookService(deps.dataSource, secretBox, urlPolicy, realNow, publicUrl, events.handoff),
    events,
    feeds,
    mail,
    accountEmail,
    notifications: new WatchlistNotificationService(deps.dataSource, watchlists, unsubscribeTokens),
    digests: new DigestService(deps.dataSource, predictions, deps.clock, mail, unsubscribeTokens, publicUrl.replace(/\/+$/, ''), deps.logger, realNow),
  };
}
