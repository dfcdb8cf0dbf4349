import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last period a scheduled job was claimed for: with several instances, the first to claim an hour runs it. */
@Entity('job_run')
export class JobRunEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @Column({ type: 'timestamptz' })
  periodStart: Date;

  @Column({ type: 'timestamptz' })
  claimedAt: Date;
}
