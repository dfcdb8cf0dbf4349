import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { evaluate } from '../model/evaluate/rolling-evaluation';
import { renderModelCard } from '../model/evaluate/model-card';
import { CALIBRATION_FILE } from '../services/trust.service';
import { targetSections } from '../model/evaluate/model-card-targets';
import { skillSections } from '../model/evaluate/model-card-skill';
import { seedSpread } from '../model/evaluate/seed-spread';
import { fridaysAgainstExpected } from '../model/evaluate/pmb-fridays';
import { DEFAULT_ENSEMBLE_SIZE, DEFAULT_HIDDEN_LAYERS } from '../model/train/train';
import { loadConfig } from '../config';
import { loadSnapshotTrainingData } from '../services/training-data';

const DOCS = path.resolve(__dirname, '..', '..', '..', 'docs');
const HIDDEN_LAYERS = [...DEFAULT_HIDDEN_LAYERS];
const SPREAD_SEEDS = [1, 2, 3, 4, 5];
/** The test sessions the card reports on; `--design` scores the same number before them. */
const REPORT_SESSIONS = 3;

/**
 * `npm run evaluate`: rolling-origin evaluation on the snapshot (BILLS_SNAPSHOT, else the shipped
 * data); writes docs/model-card.md and its reliability diagrams, deterministically (no timings or
 * machine facts: an unchanged model and data leave the files unchanged). Reads the snapshot folder, not the
 * database, so it never competes with a running server. `--design` scores the design folds instead (the
 * sessions before the card's) and prints their skill by kind, leaving the card as it is. Both print the per-kind
 * targets. `--save-nowcasts=FILE` writes the scored nowcasts as JSON.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.snapshotDir) throw new Error('npm run evaluate needs a snapshot folder: set BILLS_SNAPSHOT');
  const { asOf, sessionNames, ...data } = await loadSnapshotTrainingData(config.snapshotDir);
  const bills = data.bills;
  const log = (message: string) => process.stderr.write(`${message}\n`);

  const design = process.argv.includes('--design');
  const evaluation = evaluate(data, {
    asOf,
    sessionNames,
    sessions: REPORT_SESSIONS,
    skipLatestSessions: design ? REPORT_SESSIONS : 0,
    training: { hiddenLayers: HIDDEN_LAYERS },
    onProgress: log,
  });
  const save = process.argv.find((a) => a.startsWith('--save-nowcasts='));
  if (save) writeFileSync(save.slice('--save-nowcasts='.length), JSON.stringify({ folds: evaluation.folds.map((f) => f.session), nowcasts: evaluation.nowcasts }));
  const sessionName = (id: number) => sessionNames[id] ?? String(id);
  process.stdout.write(`${design ? 'Design' : 'Test'} folds: ${evaluation.folds.map((f) => f.session.name).join(', ')}\n\n${targetSections(evaluation.targets, sessionName, '##').join('\n')}\n`);
  if (design) {
    process.stdout.write(`${skillSections(evaluation).join('\n')}\n`);
    return;
  }
  log('training on the whole snapshot with five seeds, to compare');
  const spread = seedSpread(data, { cutoff: asOf, hiddenLayers: HIDDEN_LAYERS, seeds: SPREAD_SEEDS });

  const card = renderModelCard({ evaluation, dataAsOf: asOf, bills: bills.length, hiddenLayers: HIDDEN_LAYERS, ensembleSize: DEFAULT_ENSEMBLE_SIZE, seedSpread: spread, command: 'npm run evaluate', pmbFridays: fridaysAgainstExpected(data.sessions, asOf), sessionNames });
  mkdirSync(path.join(DOCS, 'model-card'), { recursive: true });
  writeFileSync(path.join(DOCS, 'model-card.md'), card.markdown);
  for (const [name, svg] of Object.entries(card.svgs)) writeFileSync(path.join(DOCS, 'model-card', name), svg);
  writeFileSync(path.join(DOCS, 'model-card', CALIBRATION_FILE), `${JSON.stringify(evaluation.trust, null, 1)}\n`);
  process.stdout.write(`wrote ${path.join(DOCS, 'model-card.md')} and ${Object.keys(card.svgs).length} diagrams\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`evaluate: ${error.message}\n`);
  process.exit(1);
});
