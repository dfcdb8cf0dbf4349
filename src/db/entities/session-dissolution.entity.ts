import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A session's end fixed by a dissolution for a general election, and the day it became known (the
 * election called, or the date fixed in law). From a snapshot's sessions table (`endAnnounced`), or
 * recorded by an operator for the live source, which says nothing of dissolutions
 * (`npm run admin -- announce-dissolution`). The model reads it from `announced` on, never before.
 */
@Entity('session_dissolution')
export class SessionDissolutionEntity {
  /** Bills API session id */
  @PrimaryColumn({ type: 'integer' })
  sessionId: number;

  /** the day the dissolution's date became known */
  @Column({ type: 'date' })
  announced: string;

  /** the session's last day */
  @Column({ type: 'date' })
  endDate: string;

  /** `source`: read from the bills' source (a snapshot's endAnnounced); `operator`: recorded with the admin CLI */
  @Column({ type: 'text' })
  recordedBy: 'source' | 'operator';

  @Column({ type: 'timestamptz' })
  recordedAt: Date;
}
