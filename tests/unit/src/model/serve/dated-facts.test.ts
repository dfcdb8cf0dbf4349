import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { featureVector, FEATURE_NAMES, FEATURE_SCHEMA_VERSION, PMB_FRIDAYS_SCALE } from '../../../../../src/model/serve/features';
import { sessionOutlook } from '../../../../../src/model/serve/session-length';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { sessionsKnownAt } from '../../../../../src/model/train/train';
import { fridaysAgainstExpected } from '../../../../../src/model/evaluate/pmb-fridays';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

// issue 34: facts with a date that the features left unused, each known only from its date on
let bills: TrainingBill[];
let sessions: SessionFact[];

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const bill = (id: number) => bills.find((b) => b.facts.billId === id)!.facts;
const feature = (id: number, date: string, name: string, table = sessions) => {
  expect(FEATURE_NAMES).toContain(name);
  return featureVector(billAsOf(bill(id), date, table), table, new SittingCalendar([]))[FEATURE_NAMES.indexOf(name)];
};
const session = (id: number) => sessions.find((s) => s.id === id)!;
const datesOf = (id: number, stage: string) => bill(id).stages.filter((s) => s.stage === stage).flatMap((s) => s.dates);

it('is a new feature schema', () => {
  expect(FEATURE_SCHEMA_VERSION).toBeGreaterThanOrEqual(8);
});

describe("pmb_fridays_left: the session's expected Fridays, not thirteen", () => {
  it('reads each session’s Fridays from its private members’ bills', () => {
    const sat = (id: number) => session(id).pmbFridays!.filter((d) => d >= session(id).startDate! && d <= session(id).endDate!).length;
    expect([24, 30, 35, 34, 26].map(sat)).toEqual([18, 18, 7, 0, 13]);
  });

  it('expects more Fridays for a session after an election, from the ones before it of its sort', () => {
    // 2017-19 began after an election: the Fridays per day of 2010-12 (18 in 714 days) times its expected length
    const start = sessionOutlook(30, sessions, '2017-06-13');
    expect(start.afterElection).toBe(true);
    expect(start.expectedPmbFridays).toBeGreaterThan(15);
    // 2016-17 followed a prorogation: about thirteen
    const prorogued = sessionOutlook(29, sessions, '2016-05-18').expectedPmbFridays!;
    expect(prorogued).toBeGreaterThan(11);
    expect(prorogued).toBeLessThan(14.5);
  });

  it('is the expected Fridays less those sat, as a share of 20', () => {
    const ballotBill = 2906; // 2021-22
    const expected = sessionOutlook(36, sessions, '2021-09-09').expectedPmbFridays!;
    expect(feature(ballotBill, '2021-09-09', 'pmb_fridays_left')).toBeCloseTo(Math.min(1, expected / PMB_FRIDAYS_SCALE), 10);
    const expectedLater = sessionOutlook(36, sessions, '2021-12-31').expectedPmbFridays!;
    const sat = bill(ballotBill).pmbSession!.fridays.filter((d) => d >= '2021-05-11' && d <= '2021-12-31').length;
    expect(sat).toBeGreaterThan(0);
    expect(feature(ballotBill, '2021-12-31', 'pmb_fridays_left')).toBeCloseTo(Math.max(0, expectedLater - sat) / PMB_FRIDAYS_SCALE, 10);
  });

  it('never reads a Friday after the date', () => {
    // the Fridays of 2017-19 still to come on 2018-01-01 do not move what 2018-01-01 expects of 2019-21's sort
    const cut = sessionsKnownAt(sessions, '2018-01-01');
    expect(cut.find((s) => s.id === 30)!.pmbFridays!.every((d) => d <= '2018-01-01')).toBe(true);
    expect(sessionOutlook(30, sessions, '2018-01-01')).toEqual(sessionOutlook(30, cut, '2018-01-01'));
  });

  it('says how far the expectation at each session’s start was off', () => {
    const rows = fridaysAgainstExpected(sessions, '2021-12-31');
    const of = (id: number) => rows.find((r) => r.sessionId === id)!;
    expect(of(30).sat).toBe(18);
    expect(of(30).expectedAtStart).toBeGreaterThan(15);
    // 2009-10 was ended by a dissolution announced on 2010-04-06: by then its short length was known
    expect(of(23).expectedAtAnnouncement).toBeLessThan(of(23).expectedAtStart!);
  });
});

describe('money_resolution', () => {
  it('is 1 from the day of the bill’s money resolution, 0 before', () => {
    const withResolution = bills.find((b) => b.facts.kind === 'pmb_ballot' && b.facts.stages.some((s) => s.stage === 'money_resolution' && s.dates.length))!.facts;
    const day = datesOf(withResolution.billId, 'money_resolution')[0];
    const before = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    expect(feature(withResolution.billId, before, 'money_resolution')).toBe(0);
    expect(feature(withResolution.billId, day, 'money_resolution')).toBe(1);
  });
});

describe('carried_over', () => {
  it('is known from the carry-over motion’s day, before the next session begins', () => {
    const carried = bills.find((b) => {
      const motion = b.facts.stages.find((s) => s.stage === 'carry_over_motion' && s.dates.length);
      const own = sessions.find((s) => s.id === b.facts.introducedSessionId);
      return motion && own?.endDate && motion.dates[0] < own.endDate && b.facts.kind === 'government';
    })!.facts;
    const motion = datesOf(carried.billId, 'carry_over_motion')[0];
    const end = session(carried.introducedSessionId).endDate!;
    const dayBefore = new Date(Date.parse(motion) - 86_400_000).toISOString().slice(0, 10);
    expect(feature(carried.billId, dayBefore, 'carried_over')).toBe(0);
    expect(feature(carried.billId, motion, 'carried_over')).toBe(1);
    expect(feature(carried.billId, end, 'carried_over')).toBe(1);
  });
});

describe('an announced dissolution', () => {
  // 2016-17: the Prime Minister's statement of 18 April 2017, dissolution on 3 May (last sitting 27 April)
  const governmentBill = () => bills.find((b) => b.facts.kind === 'government' && b.facts.introducedSessionId === 29 && b.outcome.royalAssentDate && b.outcome.royalAssentDate >= '2017-04-18')!.facts;

  it('is read from the snapshot’s endAnnounced', () => {
    expect(session(29).dissolution).toEqual({ announced: '2017-04-18', end: '2017-04-27' });
    expect(session(30).dissolution).toBeNull();
  });

  it('is unknown before its announcement and known, with the days left, from it', () => {
    const id = governmentBill().billId;
    expect(feature(id, '2017-04-17', 'dissolution_announced')).toBe(0);
    expect(feature(id, '2017-04-17', 'dissolution_days_left')).toBe(0);
    expect(feature(id, '2017-04-18', 'dissolution_announced')).toBe(1);
    expect(feature(id, '2017-04-18', 'dissolution_days_left')).toBeCloseTo(Math.log1p(9) / Math.log1p(800), 10);
  });

  it('reads the live record (an operator’s) the same way as the snapshot’s', () => {
    const id = governmentBill().billId;
    const live = sessions.map((s) => (s.id === 29 ? { ...s, endDate: null, dissolution: { announced: '2017-04-18', end: '2017-04-27' } } : s));
    expect(feature(id, '2017-04-20', 'dissolution_days_left', live)).toBe(feature(id, '2017-04-20', 'dissolution_days_left'));
    expect(sessionsKnownAt(live, '2017-04-17').find((s) => s.id === 29)!.dissolution).toBeNull();
  });

  it('fixes the end from an announcement years ahead (the Fixed-term Parliaments Act, for 2014-15)', () => {
    const id = bills.find((b) => b.facts.kind === 'government' && b.facts.introducedSessionId === 27)!.facts.billId;
    const introduced = bill(id).introducedDate!;
    expect(feature(id, introduced, 'dissolution_announced')).toBe(1);
  });
});
