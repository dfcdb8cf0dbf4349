import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** A signed-in browser: the cookie holds a random token, the database only its SHA-256. */
@Entity('dashboard_session')
@Index('idx_dashboard_session_account', ['accountId'])
export class DashboardSessionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_dashboard_session_account' })
  account?: AccountEntity;

  @Index('uq_dashboard_session_token_hash', { unique: true })
  @Column({ type: 'text' })
  tokenHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** the last request it made (written at most once a minute): the idle timeout runs from here */
  @Column({ type: 'timestamptz' })
  lastSeenAt: Date;

  /** the absolute end, however active the session is */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
