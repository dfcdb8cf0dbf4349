import type { ScoredNowcast } from '../../src/model/evaluate/skill-by-kind';

/** A test nowcast of a bill, Royal Assent only (next stage and ETA unknown), scored in the fold of session `foldSessionId`. */
export const royalAssentNowcast = (billId: number, kind: string, model: number, table: number, y: 0 | 1, date = '2020-01-01', foldSessionId = 35): ScoredNowcast => ({
  billId,
  kind,
  foldSessionId,
  date,
  progress: 2,
  outputs: { royal_assent: { y, model, byKind: table, byKindAndStage: table } },
  eta: null,
});
