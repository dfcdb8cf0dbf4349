import type { EntityManager } from 'typeorm';
import { ServiceEventEntity } from '../db/entities/service-event.entity';
import { insertJsonRows } from '../db/json-rows';
import type { EventBus } from './bus';
import type { EventSink, ServiceEvent } from './event';
import type { OutboxHandoff } from './webhooks/handoff';

/** Events one statement inserts: a refresh after a big sync or a replay emits thousands, and on the embedded database one statement holds the event loop. */
const EVENTS_PER_INSERT = 100;

/**
 * Where every emitted event goes, whoever emits it (the refresh, an alert check): the event log
 * (`service_event`) and the sinks (the webhook outbox) inside the emitter's transaction, then the
 * bus once that transaction has committed. One path, so no channel can miss an emitter.
 */
export class EventLog {
  constructor(
    private readonly sinks: readonly EventSink[],
    private readonly bus: EventBus,
    /**
     * Told once the emitter's transaction has committed, with its events (the webhook worker is
     * woken and handed its outbox rows): a sink's rows are visible to other sessions only then, so
     * a look made on the sink's own signal, inside the transaction, finds nothing on PostgreSQL and
     * the rows waited for the next look.
     */
    private readonly handoff?: OutboxHandoff,
    /** told once the emitter's transaction has committed, as the handoff is: the mail worker looks for the alert emails the sinks wrote */
    private readonly afterCommit?: () => void,
  ) {}

  /** Records `events` of the service day `serviceDay` in `manager`'s transaction; a sink that throws rolls it back. */
  async record(manager: EntityManager, events: readonly ServiceEvent[], serviceDay: string): Promise<void> {
    await insertJsonRows(
      manager,
      ServiceEventEntity,
      events.map((e) => ({ id: e.id, type: e.type, billId: e.data.bill_id, accountId: e.accountId ?? null, serviceDay, occurredAt: new Date(e.timestamp), data: e.data as object as Record<string, never> })),
      { rowsPerStatement: EVENTS_PER_INSERT },
    );
    for (const sink of this.sinks) await sink(manager, events);
  }

  /** Sends recorded events to their live receivers: only after the transaction that recorded them committed. */
  publish(events: readonly ServiceEvent[]): void {
    try {
      if (events.length) this.handoff?.committed(events);
      if (events.length) this.afterCommit?.();
    } finally {
      // subscribers get the events even if handing the outbox rows over failed (the rows stay in the database, due once their claim lapses)
      this.bus.publish(events);
    }
  }
}
