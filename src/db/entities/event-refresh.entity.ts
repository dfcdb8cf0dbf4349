import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What the last refresh ran on: the service's day, the data state and the model version. A
 * refresh finding the same three has nothing to do (another instance did it), and the day it
 * records bounds the stage changes the next refresh reports.
 */
@Entity('event_refresh')
export class EventRefreshEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @Column({ type: 'date' })
  serviceDay: string;

  @Column({ type: 'text' })
  dataState: string;

  @Column({ type: 'integer' })
  modelVersion: number;

  @Column({ type: 'timestamptz' })
  refreshedAt: Date;
}
