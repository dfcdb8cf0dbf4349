import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { House } from '../../vocabulary';
import { BillEntity } from './bill.entity';

/** A Commons division linked to a bill (The Public Whip's counts, to July 2018). */
@Entity('division')
@Index('idx_division_bill', ['billId', 'date'])
export class DivisionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @ManyToOne(() => BillEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bill_id', foreignKeyConstraintName: 'fk_division_bill' })
  bill?: BillEntity;

  @Column({ type: 'text' })
  house: House;

  @Column({ type: 'date' })
  date: string;

  /** the division's number on its day */
  @Column({ type: 'integer' })
  number: number;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'integer' })
  ayes: number;

  @Column({ type: 'integer' })
  noes: number;

  @Column({ type: 'text', nullable: true })
  stage: string | null;

  @Column({ type: 'integer', nullable: true })
  billStageId: number | null;

  @Column({ type: 'text' })
  source: string;
}
