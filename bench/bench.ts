import 'reflect-metadata';
import type { BillFacts } from '../src/model/serve/bill-facts';
import { Predictor } from '../src/model/serve/predictor';
import { trainModel } from '../src/model/train/train';
import { loadConfig } from '../src/config';
import { loadSnapshotTrainingData } from '../src/services/training-data';

/**
 * `npm run bench`: prints the model's figures against its targets (training on the whole snapshot
 * under 3 minutes on 2 cores; one nowcast under 100 µs; the served model under 50 MB). Figures,
 * not assertions: they depend on the machine.
 */
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.snapshotDir) throw new Error('npm run bench needs a snapshot folder: set BILLS_SNAPSHOT');
  const { bills, sessions, asOf } = await loadSnapshotTrainingData(config.snapshotDir);

  const trainStarted = Date.now();
  const artifact = trainModel({ bills, sessions }, { cutoff: asOf });
  const trainingSeconds = (Date.now() - trainStarted) / 1000;

  // One model is too small to see against the heap's noise: load twenty and divide.
  const before = heapMb();
  const copies = Array.from({ length: 20 }, () => new Predictor(JSON.parse(JSON.stringify(artifact))));
  const servedMb = (heapMb() - before) / copies.length;
  const predictor = copies[0];
  const artifactMb = Buffer.byteLength(JSON.stringify(artifact)) / 2 ** 20;

  const live: BillFacts[] = bills.filter((b) => predictor.nowcast(b.facts, asOf, sessions).status === 'live').map((b) => b.facts);
  const settled: BillFacts[] = bills.slice(0, 1000).map((b) => b.facts);
  const time = (facts: BillFacts[], rounds: number) => {
    for (const f of facts) predictor.nowcast(f, asOf, sessions);
    const started = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const f of facts) predictor.nowcast(f, asOf, sessions);
    return Number(process.hrtime.bigint() - started) / 1000 / (rounds * facts.length);
  };
  const liveMicros = time(live, 20);
  const mixedMicros = time(settled, 20);

  const rows: [string, string, string][] = [
    ['training on the whole snapshot', `${trainingSeconds.toFixed(1)} s (${bills.length} bills, ${artifact.sampleCounts.all} samples)`, 'under 180 s'],
    ['one nowcast of a live bill (features, all networks)', `${liveMicros.toFixed(1)} µs (mean of ${live.length} bills × 20)`, 'under 100 µs'],
    ['one nowcast, bills of every status', `${mixedMicros.toFixed(1)} µs`, 'under 100 µs'],
    ['served model in memory (heap after loading it)', `${servedMb.toFixed(1)} MB (artifact JSON ${artifactMb.toFixed(2)} MB)`, 'under 50 MB'],
  ];
  process.stdout.write('model benchmark\n');
  for (const [what, figure, target] of rows) process.stdout.write(`  ${what.padEnd(52)} ${figure.padEnd(44)} target ${target}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exit(1);
});
