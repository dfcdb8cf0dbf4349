import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { BillEntity } from './bill.entity';

@Entity('bill_sponsor')
@Index('idx_bill_sponsor_bill', ['billId', 'position'])
export class BillSponsorEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  billId: number;

  @ManyToOne(() => BillEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bill_id', foreignKeyConstraintName: 'fk_bill_sponsor_bill' })
  bill?: BillEntity;

  /** order as the API gave it; 0 is normally the lead sponsor */
  @Column({ type: 'integer' })
  position: number;

  /** Members API id; null for an organisation */
  @Column({ type: 'integer', nullable: true })
  memberId: number | null;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  partyAtIntroduction: string | null;

  @Column({ type: 'text', nullable: true })
  houseAtIntroduction: string | null;
}
