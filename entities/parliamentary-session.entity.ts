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

  @Column({ type: 'date', nullable: true })
  firstSittingDate: string | null;

  @Column({ type: 'date', nullable: true })
  lastSittingDate: string | null;
}
