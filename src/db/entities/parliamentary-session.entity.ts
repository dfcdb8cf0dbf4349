import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('parliamentary_session')
export class ParliamentarySessionEntity {
  /** Bills API session id */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'text' })
  name: string;

  /** null while the session is running */
  @Column({ type: 'date', nullable: true })
  endDate: string | null;

  /** the session's first day: its official start where a source knows it, else the first sitting seen */
  @Column({ type: 'date', nullable: true })
  firstSittingDate: string | null;

  @Column({ type: 'date', nullable: true })
  lastSittingDate: string | null;

  /** the end date was worked out by the service (a later session seen), not taken from its table or a snapshot */
  @Column({ type: 'boolean', default: false })
  endDateInferred: boolean;

  /** when the end date was inferred; null unless `endDateInferred` */
  @Column({ type: 'timestamptz', nullable: true })
  endInferredAt: Date | null;

  /** when this database first recorded the session; null for sessions stored before it was kept */
  @Column({ type: 'timestamptz', nullable: true })
  learnedAt: Date | null;
}
