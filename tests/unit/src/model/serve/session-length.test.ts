import type { BillFacts, SessionFact } from '../../../../../src/model/serve/bill-facts';
import { FEATURE_NAMES, featureVector, inputsFor } from '../../../../../src/model/serve/features';
import { sessionOutlook } from '../../../../../src/model/serve/session-length';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../../../../src/model/serve/truncate';

// the real sessions around the 2015 and 2017 elections (first sittings and ends)
const SESSIONS: SessionFact[] = [
  { id: 25, startDate: '2012-05-10', endDate: '2013-04-25' },
  { id: 26, startDate: '2013-05-09', endDate: '2014-05-14' },
  { id: 27, startDate: '2014-04-29', endDate: '2015-03-26' },
  { id: 28, startDate: '2015-05-28', endDate: '2016-05-12' },
  { id: 29, startDate: '2016-05-19', endDate: '2017-04-27' },
  { id: 30, startDate: '2017-06-22', endDate: '2019-10-08' },
];

describe('how long a session may still run, from the sessions known at the date', () => {
  it('tells a session after a general election (a month or more since the last ended) from one after a prorogation', () => {
    expect(sessionOutlook(30, SESSIONS, '2017-07-01')).toMatchObject({ afterElection: true, expectedLengthDays: 350 });
    // 2016-17 followed a week's prorogation: the median of 2012-13, 2013-14 and 2014-15
    expect(sessionOutlook(29, SESSIONS, '2016-06-01')).toMatchObject({ afterElection: false, expectedLengthDays: 350 });
    expect(sessionOutlook(25, SESSIONS, '2012-06-01')).toMatchObject({ afterElection: false, expectedLengthDays: null });
  });

  it('never reads an end or a session after the date', () => {
    // on 2017-07-01 the end of 2017-19 (two years and more) is unknown: the table with it says the same
    const unknownEnd = SESSIONS.map((s) => (s.id === 30 ? { ...s, endDate: null } : s));
    const withLater = [...SESSIONS, { id: 34, startDate: '2019-10-15', endDate: '2019-11-05' }, { id: 35, startDate: '2019-12-18', endDate: '2021-04-29' }];
    expect(sessionOutlook(30, withLater, '2017-07-01')).toEqual(sessionOutlook(30, unknownEnd, '2017-07-01'));
    // once 2017-19 has ended it counts for the next session after an election
    expect(sessionOutlook(35, withLater, '2020-01-15').expectedLengthDays).toBe((350 + 838) / 2);
  });

  it('is a feature of every output but next_stage_30d', () => {
    const facts: BillFacts = {
      billId: 1,
      kind: 'government',
      originatingHouse: 'Commons',
      introducedDate: '2017-07-13',
      introducedSessionId: 30,
      leadSponsorPartyInGovernment: true,
      stages: [{ seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2017-07-13'] }],
      divisions: [],
      withdrawnDate: null,
    };
    const features = featureVector(billAsOf(facts, '2017-08-01', SESSIONS), SESSIONS, new SittingCalendar([]));
    const after = FEATURE_NAMES.indexOf('session_after_election');
    const left = FEATURE_NAMES.indexOf('session_days_left_expected');
    expect(features[after]).toBe(1);
    // 350 days expected, 40 gone
    expect(features[left]).toBeCloseTo(Math.log1p(310) / Math.log1p(800), 10);
    expect(inputsFor('royal_assent', features)).toEqual(features);
    expect(inputsFor('next_stage_30d', features)[left]).toBe(0);
    expect(inputsFor('next_stage_30d', features)[after]).toBe(1);
  });
});
