import { partyOn } from '../../../../../src/ingest/bills-api/party-history';

// a member who crossed the floor on 2019-02-20: the old spell ends that day, the new one begins it
const crossed = (order: 'old first' | 'new first') => {
  const old = { party: { name: 'Conservative' }, startDate: '2010-05-06T00:00:00', endDate: '2019-02-20T00:00:00' };
  const now = { party: { name: 'The Independent Group' }, startDate: '2019-02-20T00:00:00', endDate: null };
  return order === 'old first' ? [old, now] : [now, old];
};

it.each(['old first', 'new first'] as const)('takes the party a member joined on the day of a change, whatever order the API lists the spells in (%s)', (order) => {
  expect(partyOn(crossed(order), '2019-02-20')).toBe('The Independent Group');
  expect(partyOn(crossed(order), '2019-02-19')).toBe('Conservative');
  expect(partyOn(crossed(order), '2021-01-01')).toBe('The Independent Group');
});

it('has no party for a day no spell covers', () => {
  expect(partyOn(crossed('old first'), '2001-01-01')).toBeNull();
});
