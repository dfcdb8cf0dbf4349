import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A bill whose predictions a user opened in the dashboard on a UTC day: the website charges one
 * prediction per bill per day, however often the bill (its predictions and chart) is reopened.
 */
@Entity('website_bill_view')
@Index('idx_website_bill_view_day', ['day'])
export class WebsiteBillViewEntity {
  @PrimaryColumn({ type: 'integer' })
  accountId: number;

  /** the UTC day, YYYY-MM-DD */
  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'integer' })
  billId: number;
}
