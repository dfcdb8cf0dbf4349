import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const TIERS = ['free', 'pilot', 'pro'] as const;
export type Tier = (typeof TIERS)[number];

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
