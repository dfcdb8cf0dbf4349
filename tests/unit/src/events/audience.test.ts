import { inactiveEventTypes, receivesEvent } from '../../../../src/events/audience';
import type { ServiceEvent } from '../../../../src/events/event';

const event = (type: ServiceEvent['type'], billId: number, accountId?: number): ServiceEvent => ({ id: 'evt_x', type, timestamp: '2021-11-17T10:00:00.000Z', data: { bill_id: billId }, accountId });

describe('receivesEvent', () => {
  const pilot = { accountId: 1, tier: 'pilot' as const, bills: new Set([2806]) };
  const pro = { accountId: 2, tier: 'pro' as const, bills: new Set([2806]) };

  it('delivers the events of watched bills only, or of every bill to an all-bills recipient', () => {
    expect(receivesEvent(event('bill.stage_changed', 2806), pilot)).toBe(true);
    expect(receivesEvent(event('bill.stage_changed', 3022), pilot)).toBe(false);
    expect(receivesEvent(event('bill.stage_changed', 3022), { ...pilot, bills: 'all' })).toBe(true);
  });

  it('keeps Pro-only types for Pro, and nothing for Free', () => {
    expect(receivesEvent(event('prediction.trending_up', 2806), pilot)).toBe(false);
    expect(receivesEvent(event('prediction.trending_up', 2806), pro)).toBe(true);
    expect(receivesEvent(event('prediction.updated', 2806), { ...pilot, tier: 'free' })).toBe(false);
  });

  it('gives an event with an account id to that account alone, whatever bills others watch', () => {
    expect(receivesEvent(event('prediction.crossed_threshold', 2806, 2), pro)).toBe(true);
    expect(receivesEvent(event('prediction.crossed_threshold', 2806, 2), { ...pro, accountId: 3, bills: 'all' })).toBe(false);
  });
});

describe('inactiveEventTypes', () => {
  it('names the Pro-only types a tier below Pro keeps but is not sent, and why', () => {
    expect(inactiveEventTypes('pro', ['prediction.trending_up', 'bill.stage_changed'])).toEqual({ types: [], reason: null });
    expect(inactiveEventTypes('pilot', ['bill.stage_changed'])).toEqual({ types: [], reason: null });
    expect(inactiveEventTypes('pilot', ['prediction.trending_up', 'bill.stage_changed', 'prediction.probability_spike'])).toEqual({
      types: ['prediction.trending_up', 'prediction.probability_spike'],
      reason: 'prediction.trending_up, prediction.probability_spike need the pro tier: not sent while the account is on the pilot tier',
    });
    expect(inactiveEventTypes('free', ['bill.stage_changed'])).toEqual({ types: ['bill.stage_changed'], reason: 'the free tier receives no events' });
  });
});
