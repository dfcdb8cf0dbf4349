import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The durable log of every event a refresh emitted, written in the refresh's transaction with the
 * prediction snapshots it was computed from: an event is never recorded without its snapshot.
 */
@Entity('service_event')
@Index('idx_service_event_day', ['serviceDay'])
@Index('idx_service_event_recorded', ['recordedAt'])
// a watchlist's Atom feed: its bills' newest events
@Index('idx_service_event_bill_occurred', ['billId', 'occurredAt'])
export class ServiceEventEntity {
  /** `evt_…`, the id every channel carries */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'integer' })
  billId: number;

  /** set when only this account may receive the event */
  @Column({ type: 'integer', nullable: true })
  accountId: number | null;

  /** the service's day the refresh ran for */
  @Column({ type: 'date' })
  serviceDay: string;

  /** the payload's timestamp */
  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  recordedAt: Date;
}
