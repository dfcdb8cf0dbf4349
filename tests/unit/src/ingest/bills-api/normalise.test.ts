import type { ApiBill, ApiBillSummary, ApiSearchResult, ApiStageSummary } from '../../../../../src/ingest/bills-api/api-types';
import { parseRetryAfter } from '../../../../../src/ingest/bills-api/bills-api-client';
import { timeKey, withLondonOffset } from '../../../../../src/ingest/bills-api/api-dates';
import { normaliseBill } from '../../../../../src/ingest/bills-api/normalise';
import { SessionLedger } from '../../../../../src/ingest/bills-api/sessions';
import { stageName } from '../../../../../src/ingest/bills-api/stage-names';
import { readJson } from '../../../../support/fixture-bills-api';

describe('normalising Bills API JSON', () => {
  const detail = readJson<ApiBill>('bills/2702.json');
  const stages = readJson<ApiSearchResult<ApiStageSummary>>('stages/2702.json').items!;
  const summary: ApiBillSummary = { ...detail };

  it('maps the stage ids of the data README, and unknown ones to `other`', () => {
    expect([1, 6, 2, 7, 3, 8, 48, 49, 4, 9, 5, 10, 12, 13, 42, 11].map(stageName)).toEqual([
      'first_reading',
      'first_reading',
      'second_reading',
      'second_reading',
      'committee',
      'committee',
      'committee',
      'committee',
      'report',
      'report',
      'third_reading',
      'third_reading',
      'consideration_of_amendments',
      'consideration_of_amendments',
      'consideration_of_amendments',
      'royal_assent',
    ]);
    expect([38, 39, 40, 41, 44, 46, 47, 23, 28, 29, 45, 99].map(stageName)).toEqual([
      'legislative_grand_committee',
      'reconsideration',
      'consequential_consideration',
      'standing_orders_examination',
      'standing_orders_examination',
      'select_committee',
      'select_committee',
      'private_bill_petition',
      'allocation_of_time_motion',
      'allocation_of_time_motion',
      'other',
      'other',
    ]);
  });

  it('falls back to the current stage when the stage list is empty', () => {
    const record = normaliseBill({ summary, detail, stages: [], sessions: new SessionLedger() });
    expect(record.stageHistory).toBe('current_stage_only');
    expect(record.missingStageCount).toBe(1);
    expect(record.stages).toHaveLength(1);
    expect(record.stages[0]).toMatchObject({ seq: 2, stage: 'second_reading', fromCurrentStage: true, dates: [] });
    // from the built-in bill type table
    expect(record.billKind).toBe('pmb_ten_minute_rule');
  });

  it('counts a dated Royal Assent as an Act even when isAct is false, and moves dates after the session end aside', () => {
    const royalAssent: ApiStageSummary = {
      id: 12100,
      stageId: 11,
      sessionId: 35,
      description: 'Royal Assent',
      abbreviation: 'RA',
      house: 'Unassigned',
      stageSittings: [{ id: 1, stageId: 11, billStageId: 12100, billId: 2702, date: '2020-03-19T00:00:00' }],
      sortOrder: 3,
    };
    const setDown: ApiStageSummary = {
      ...stages[1]!,
      stageSittings: [
        { id: 2, stageId: 7, billStageId: 12019, billId: 2702, date: '2021-05-14T00:00:00' },
        { id: 3, stageId: 7, billStageId: 12019, billId: 2702, date: '2021-03-12T00:00:00' },
        { id: 4, stageId: 7, billStageId: 12019, billId: 2702, date: null },
        { id: 5, stageId: 7, billStageId: 12019, billId: 2702, date: '2021-03-12T00:00:00' },
      ],
    };
    const record = normaliseBill({ summary, detail: { ...detail, isAct: false }, stages: [stages[0]!, setDown, royalAssent], sessions: new SessionLedger() });
    expect(record).toMatchObject({ outcome: 'royal_assent', royalAssentDate: '2020-03-19', isAct: false });
    expect(record.stages[1]).toMatchObject({ dates: ['2021-03-12'], datesAfterSessionEnd: ['2021-05-14'] });
  });

  it('keeps organisations only where no member is given, ordered by sortOrder', () => {
    const record = normaliseBill({
      summary,
      detail: {
        ...detail,
        sponsors: [
          { member: null, organisation: { name: 'Ministry of Housing, Communities and Local Government' }, sortOrder: 2 },
          { member: { memberId: 9001, name: 'A Co-operative Member', party: 'Labour (Co-op)', house: 'Commons' }, organisation: null, sortOrder: 1 },
        ],
      },
      stages,
      sessions: new SessionLedger(),
    });
    expect(record.sponsors).toEqual([{ memberId: 9001, name: 'A Co-operative Member', partyAtIntroduction: 'Labour (Co-op)', houseAtIntroduction: 'Commons' }]);
    expect(record.sponsorOrganisations).toEqual(['Ministry of Housing, Communities and Local Government']);
    // 2020: a Conservative government
    expect(record.leadSponsorPartyInGovernment).toBe(false);
  });

  it('keeps a bill of the latest session seen pending, and a defeated one fell', () => {
    const ledger = new SessionLedger([]);
    ledger.noteSessionIds([35]);
    expect(normaliseBill({ summary, detail, stages, sessions: ledger }).outcome).toBe('pending');
    expect(normaliseBill({ summary, detail: { ...detail, isDefeated: true }, stages, sessions: ledger }).outcome).toBe('fell');
    ledger.noteSessionIds([36]);
    expect(normaliseBill({ summary, detail, stages, sessions: ledger }).outcome).toBe('fell');
  });

  it('makes the UK-local API time explicit and compares times below the millisecond', () => {
    expect(withLondonOffset('2026-07-17T18:03:14.5516835')).toBe('2026-07-17T18:03:14.5516835+01:00');
    expect(withLondonOffset('2024-03-12T23:17:31.2836411')).toBe('2024-03-12T23:17:31.2836411+00:00');
    expect(withLondonOffset('2024-03-12T23:17:31Z')).toBe('2024-03-12T23:17:31Z');
    expect(new Date(withLondonOffset('2026-07-17T18:03:14.5516835')).toISOString()).toBe('2026-07-17T17:03:14.551Z');
    expect(timeKey('2026-07-17T18:03:14.5516835')! > timeKey('2026-07-17T17:03:14.551Z')!).toBe(true);
    expect(timeKey('2026-07-17T18:03:14.5516835')).toBe(timeKey('2026-07-17T17:03:14.5516835Z'));
    expect(timeKey('not a date')).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('2015-10-21T07:28:00Z'))).toBe(30_000);
  });
});
