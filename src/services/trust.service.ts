import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { progressOf } from '../model/serve/bill-state';
import { kindGroup } from '../model/serve/features';
import { type SkillOutput, type Trust, trustFor, type TrustTable } from '../model/serve/trust';
import type { BillKind, House } from '../vocabulary';

/** Written by `npm run evaluate` beside the model card's diagrams (docs/model-card/). */
export const CALIBRATION_FILE = 'calibration.json';

// __dirname is dist/src/services when built and src/services under ts-jest: try both depths.
const CANDIDATES = [path.resolve(__dirname, '..', '..', '..', 'docs', 'model-card', CALIBRATION_FILE), path.resolve(__dirname, '..', '..', 'docs', 'model-card', CALIBRATION_FILE)];

let table: TrustTable | null | undefined;

/** The evaluation's reliability by kind and stage; null when the file is missing (a checkout without docs). */
export function trustTable(): TrustTable | null {
  if (table === undefined) {
    const file = CANDIDATES.find((f) => existsSync(f));
    table = file ? (JSON.parse(readFileSync(file, 'utf8')) as TrustTable) : null;
  }
  return table;
}

export interface PredictionTrustInput {
  kind: BillKind;
  originatingHouse: House;
  /** the last main stage that sat by the reference date; null before the first */
  lastStage: { stage: string; house: string } | null;
  probabilities: Record<SkillOutput, number>;
}

/**
 * How the evaluation's nowcasts like this one (same kind, same furthest stage, same tenth of
 * probability) turned out, for Royal Assent and the next stage within 30 days. Only a live bill
 * has one: a settled bill's figures follow from its status.
 */
export function predictionTrust(input: PredictionTrustInput): { output: SkillOutput; trust: Trust; testSessions: string[] }[] {
  const t = trustTable();
  if (!t) return [];
  const progress = input.lastStage ? progressOf(input.lastStage.stage, input.lastStage.house as House, input.originatingHouse) : 0;
  return (['royal_assent', 'next_stage_30d'] as const).flatMap((output) => {
    const trust = trustFor(t, output, kindGroup(input.kind), progress, input.probabilities[output]);
    return trust ? [{ output, trust, testSessions: t.testSessions }] : [];
  });
}
