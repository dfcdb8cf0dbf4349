import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * One verification link sent (src/services/email-verification.service.ts): the SHA-256 of its
 * token (never the token), the address it verifies, when it lapses and when it was used.
 */
@Entity('email_verification')
@Index('uq_email_verification_token', ['tokenHash'], { unique: true })
@Index('idx_email_verification_account', ['accountId'])
export class EmailVerificationEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_email_verification_account' })
  account?: AccountEntity;

  @Column({ type: 'bytea' })
  tokenHash: Buffer;

  /** the address verified by the link: it verifies nothing once the account's address has changed */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
