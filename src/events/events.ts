import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { createEventBus, type EventBus } from './bus';
import type { EventSink } from './event';
import { EventLog } from './event-log';
import { type DeliveryCounts, DeliveryWorker, newDeliveryCounts } from './webhooks/delivery-worker';
import { OutboxHandoff } from './webhooks/handoff';
import { webhookOutbox } from './webhooks/outbox';
import type { SecretBox } from './webhooks/secret-box';
import type { UrlPolicy } from './webhooks/url-safety';

/**
 * The events module, connected: an emitter (the refresh, an alert check: services, which this
 * module never imports) records its events through the event log, which writes them to
 * `service_event` and to the webhook outbox in the emitter's transaction; once that commits, the
 * outbox's rows go to the delivery worker (OutboxHandoff.committed) and the events to the bus
 * (GraphQL subscriptions). The worker sends the rows, signing those of the standard format.
 */
export interface Events {
  /** where every emitter records its events: event log and outbox in its transaction, the bus after the commit */
  log: EventLog;
  /** the webhook outbox: one delivery row per event per endpoint that receives it */
  outbox: EventSink;
  /** tells this process's delivery worker that rows were queued, and hands it the outbox's rows after their commit */
  handoff: OutboxHandoff;
  /** sends the outbox; sends nothing until started (`startDeliveries`) */
  deliveries: DeliveryWorker;
  /** webhook attempts by outcome, counted by the delivery worker (for /metrics) */
  deliveryCounts: DeliveryCounts;
  /** the bus events travel on to subscribers after their emitter's transaction commits */
  bus: EventBus;
  /** Starts sending webhooks: claims left by a killed process are handed back, then due rows are sent. */
  startDeliveries(): Promise<void>;
  /** Stops the delivery worker (attempts under way get their grace) and closes the bus. */
  close(): Promise<void>;
}

export interface EventsOptions {
  dataSource: DataSource;
  /** PGlite: one process owns the database (no advisory lock; claims left at start are a dead process's) */
  embedded: boolean;
  logger: Logger;
  /** the real time of outbox rows (tests move it) */
  now?: () => Date;
  /** the bus over Redis pub/sub when set; in-process otherwise */
  redisUrl?: string;
  /** the bus's Redis channel (tests give each run its own) */
  channel?: string;
  /** written in each emitter's transaction after the webhook outbox */
  sinks?: EventSink[];
  /** `publicUrl` (PUBLIC_URL): where Slack and Teams messages link to */
  webhooks: { urlPolicy: UrlPolicy; secretBox: SecretBox; publicUrl: string };
}

/** Creates the events module and connects its parts. */
export function createEvents(options: EventsOptions): Events {
  const { dataSource, embedded, logger } = options;
  const now = options.now ?? (() => new Date());
  const deliveryCounts = newDeliveryCounts();
  const deliveries = new DeliveryWorker(dataSource, {
    urlPolicy: options.webhooks.urlPolicy,
    secretsFor: (endpoint, at) => options.webhooks.secretBox.signingSecrets(endpoint, at),
    embedded,
    logger,
    counts: deliveryCounts,
  });
  const handoff = new OutboxHandoff();
  handoff.attach(deliveries);
  const outbox = webhookOutbox({ now, handoff, publicUrl: options.webhooks.publicUrl });
  const bus = createEventBus({ redisUrl: options.redisUrl, channel: options.channel });
  const log = new EventLog([outbox, ...(options.sinks ?? [])], bus, handoff);
  return {
    log,
    outbox,
    handoff,
    deliveries,
    deliveryCounts,
    bus,
    startDeliveries: () => deliveries.start(),
    close: async () => {
      await deliveries.stop();
      await bus.close();
    },
  };
}
