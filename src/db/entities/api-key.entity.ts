import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** An API key: the secret is shown once at creation; only its hash and a short prefix are kept. */
@Entity('api_key')
@Index('idx_api_key_account', ['accountId'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_api_key_account' })
  account?: AccountEntity;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** the key's public start, e.g. `bp_3f9a1c2e`: how a key is found and named without its secret */
  @Index('uq_api_key_prefix', { unique: true })
  @Column({ type: 'text' })
  prefix: string;

  /** hex SHA-256 of the whole key */
  @Column({ type: 'text' })
  secretHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
