import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

import type { Tier } from '../src/vocabulary';

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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
