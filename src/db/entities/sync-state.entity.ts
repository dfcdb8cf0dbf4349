import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the last ingest from a kind of source ('snapshot' or 'bills-api') reached. */
@Entity('sync_state')
export class SyncStateEntity {
  @PrimaryColumn({ type: 'text' })
  sourceKind: 'snapshot' | 'bills-api';

  /** e.g. the snapshot folder or the API base URL */
  @Column({ type: 'text' })
  sourceName: string;

  /** the date the source's facts are complete up to (a snapshot's asOf); null for the live API */
  @Column({ type: 'date', nullable: true })
  asOf: string | null;

  /** the newest source update seen: the next incremental sync asks for bills updated after it */
  @Column({ type: 'timestamptz', nullable: true })
  cursor: Date | null;

  @Column({ type: 'timestamptz' })
  completedAt: Date;

  @Column({ type: 'integer' })
  billsSeen: number;

  @Column({ type: 'integer' })
  billsChanged: number;

  /** SHA-256 over every stored bill's content hash and every session: changes exactly when the data does */
  @Column({ type: 'text' })
  dataFingerprint: string;
}
