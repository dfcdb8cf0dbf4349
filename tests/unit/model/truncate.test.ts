import type { BillFacts, SessionFact, TrainingBill } from '../../../model/bill-facts';
import { featureVector } from '../../../model/features';
import { SittingCalendar } from '../../../model/sitting-calendar';
import { sittingDatesUpTo } from '../../../model/train';
import { billAsOf, truncateAt } from '../../../model/truncate';
import { loadSnapshotTrainingData } from '../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];
let calendar: SittingCalendar;

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
  calendar = new SittingCalendar(sittingDatesUpTo(bills, '2021-12-31'));
});

const allDates = (facts: BillFacts) => [...facts.stages.flatMap((s) => s.dates), ...facts.divisions.map((d) => d.date), ...(facts.withdrawnDate ? [facts.withdrawnDate] : [])];
const bill = (id: number) => bills.find((b) => b.facts.billId === id)!.facts;

describe('truncateAt', () => {
  it('keeps nothing dated after the date', () => {
    for (const { facts } of bills.filter((b) => b.facts.divisions.length).slice(0, 50)) {
      const date = allDates(facts).sort()[Math.floor(allDates(facts).length / 2)];
      const known = truncateAt(facts, date);
      expect(allDates(known).every((d) => d <= date)).toBe(true);
      expect(allDates(known).length).toBe(allDates(facts).filter((d) => d <= date).length);
    }
  });

  it('counts a sponsor of the other house only once the bill has sat there', () => {
    // Skills and Post-16 Education Bill: started in the Lords (one Lords sponsor), first Commons sitting 2021-10-26
    const facts = bill(2868);
    expect(facts.sponsors.map((s) => s.house)).toEqual(['Lords', 'Commons']);
    expect(truncateAt(facts, '2021-10-25').sponsors.map((s) => s.house)).toEqual(['Lords']);
    expect(truncateAt(facts, '2021-10-26').sponsors.map((s) => s.house)).toEqual(['Lords', 'Commons']);
  });
});

describe('the features of a bill at a date are those of the bill truncated there', () => {
  /** real bills at a date in the middle of their lives, when later facts exist */
  const midLife = () =>
    bills
      .filter((b) => allDates(b.facts).length >= 6)
      .slice(0, 200)
      .map(({ facts }) => ({ facts, date: allDates(facts).sort()[Math.floor(allDates(facts).length / 2)] }));

  it('on real bills', () => {
    let withLaterFacts = 0;
    for (const { facts, date } of midLife()) {
      const known = billAsOf(facts, date, sessions);
      expect(featureVector(billAsOf(truncateAt(facts, date), date, sessions), sessions, calendar)).toEqual(featureVector(known, sessions, calendar));
      if (allDates(facts).some((d) => d > date)) withLaterFacts++;
    }
    expect(withLaterFacts).toBeGreaterThan(150);
  });

  it('whatever is added after the date: stages, divisions, a withdrawal, sponsors of a house it has not sat in yet', () => {
    const other = (facts: BillFacts) => (facts.originatingHouse === 'Lords' ? 'Commons' : 'Lords');
    const firstHouseOnly = midLife().filter(({ facts, date }) => !facts.stages.some((s) => s.house === other(facts) && s.dates.some((d) => d <= date)));
    expect(firstHouseOnly.length).toBeGreaterThan(30);
    for (const { facts, date } of firstHouseOnly) {
      const later = '2030-01-01';
      const future: BillFacts = {
        ...facts,
        stages: [...facts.stages, { seq: 99, stage: 'royal_assent', house: 'Unassigned', dates: [later] }, { seq: 98, stage: 'second_reading', house: other(facts), dates: [later] }],
        divisions: [...facts.divisions, { date: later, ayes: 300, noes: 299 }],
        withdrawnDate: later,
        sponsors: [...facts.sponsors, { house: other(facts) }, { house: other(facts) }],
      };
      expect(featureVector(billAsOf(future, date, sessions), sessions, calendar)).toEqual(featureVector(billAsOf(facts, date, sessions), sessions, calendar));
    }
  });
});
