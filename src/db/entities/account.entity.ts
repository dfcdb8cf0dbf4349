import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

import type { EmailStatus, Tier } from '../../vocabulary';

export type { Tier };

@Entity('account')
export class AccountEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** stored lower-cased, so lookups are case-insensitive */
  @Index('uq_account_email', { unique: true })
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  tier: Tier;

  /** scrypt hash of the dashboard password (src/services/password.ts); null for an account made by the admin command */
  @Column({ type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  /** whether the address may be mailed (src/services/email-verification.service.ts): only the verification mail goes to one not VERIFIED */
  @Column({ type: 'text', default: 'UNVERIFIED' })
  emailStatus: EmailStatus;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
