import type { House, StagePhase, StageRecord } from '../bill-record';
import { toIsoDate } from './api-dates';
import type { ApiHouse, ApiStageSummary } from './api-types';
import type { SessionKnowledge } from './sessions';
import { stageName } from './stage-names';

export function toHouse(value: ApiHouse | string | null | undefined): House {
  return value === 'Commons' || value === 'Lords' ? value : 'Unassigned';
}

/** The stages whose appearance in the other house starts the second-house phase. */
const PASSAGE_STAGES: ReadonlySet<string> = new Set(['first_reading', 'second_reading', 'committee', 'report', 'third_reading']);

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

export function normaliseStage(stage: ApiStageSummary, sessions: SessionKnowledge, fromCurrentStage: boolean): StageRecord {
  const all = sortedUnique((stage.stageSittings ?? []).map((s) => toIsoDate(s.date)).filter((d): d is string => d !== null));
  const sessionId = typeof stage.sessionId === 'number' ? stage.sessionId : null;
  const end = sessionId === null ? null : sessions.endDate(sessionId);
  return {
    seq: stage.sortOrder,
    billStageId: stage.id,
    stageId: stage.stageId,
    stage: stageName(stage.stageId),
    description: stage.description ?? '',
    abbr: stage.abbreviation ?? null,
    house: toHouse(stage.house),
    sessionId,
    dates: end === null ? all : all.filter((d) => d <= end),
    datesAfterSessionEnd: end === null ? [] : all.filter((d) => d > end),
    phase: null,
    fromCurrentStage,
  };
}

/**
 * Phase of each stage, in order: `first_house` until the first passage stage in the other house,
 * `second_house` from there, `ping_pong` from the first consideration of amendments, `royal_assent`
 * from Royal Assent. A phase never goes back, so later procedural stages keep the phase reached.
 */
export function assignPhases(stages: readonly StageRecord[], originatingHouse: House): StageRecord[] {
  // One private bill in the data originates in `Unassigned`; its first housed stage stands in.
  const firstHouse = originatingHouse !== 'Unassigned' ? originatingHouse : (stages.find((s) => s.house !== 'Unassigned')?.house ?? 'Unassigned');
  let phase: StagePhase = 'first_house';
  return stages.map((s) => {
    if (s.stage === 'royal_assent') phase = 'royal_assent';
    else if (s.stage === 'consideration_of_amendments' && phase !== 'royal_assent') phase = 'ping_pong';
    else if (phase === 'first_house' && PASSAGE_STAGES.has(s.stage) && s.house !== 'Unassigned' && s.house !== firstHouse) phase = 'second_house';
    return { ...s, phase };
  });
}
