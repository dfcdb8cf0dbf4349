import type { ServiceEvent } from '../../../../src/events/event';
import { receives, type Subscriber } from '../../../../src/webhooks/audience';

const event = (type: ServiceEvent['type'], billId: number, accountId?: number): ServiceEvent => ({ id: 'evt_1', type, timestamp: '2021-11-26T00:00:00Z', data: { bill_id: billId }, accountId });
const pilot: Subscriber = { accountId: 1, tier: 'pilot', types: ['bill.stage_changed', 'prediction.trending_up'], allBills: false, watchedBillIds: new Set([2900]) };

describe('who receives an event', () => {
  it('a subscriber of its type, for a bill on the owner’s watchlists', () => {
    expect(receives(pilot, event('bill.stage_changed', 2900))).toBe(true);
    expect(receives(pilot, event('bill.stage_changed', 26))).toBe(false);
    expect(receives(pilot, event('prediction.updated', 2900))).toBe(false);
  });

  it('every bill with all_bills', () => {
    expect(receives({ ...pilot, allBills: true }, event('bill.stage_changed', 26))).toBe(true);
  });

  it('pro-only types for pro alone, nothing for free', () => {
    expect(receives(pilot, event('prediction.trending_up', 2900))).toBe(false);
    expect(receives({ ...pilot, tier: 'pro' }, event('prediction.trending_up', 2900))).toBe(true);
    expect(receives({ ...pilot, tier: 'free' }, event('bill.stage_changed', 2900))).toBe(false);
  });

  it('an event for one account goes to that account alone', () => {
    expect(receives(pilot, event('bill.stage_changed', 2900, 1))).toBe(true);
    expect(receives(pilot, event('bill.stage_changed', 2900, 2))).toBe(false);
  });
});
