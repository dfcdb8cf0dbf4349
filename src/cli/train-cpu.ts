import 'reflect-metadata';
import { Predictor } from '../model/serve/predictor';
import { sessionsKnownAt, trainModel } from '../model/train/train';
import { loadConfig } from '../config';
import { loadSnapshotTrainingData } from '../services/training-data';

/**
 * `node scripts/run.mjs src/cli/train-cpu`: CPU seconds of training the whole model on the whole
 * snapshot, the work the first start of the server does (load on the machine changes wall time,
 * much less this), and the CPU of one nowcast of a live bill, as bench.ts times it.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.snapshotDir) throw new Error('train-cpu needs a snapshot folder: set BILLS_SNAPSHOT');
  const { asOf, sessionNames: _names, ...data } = await loadSnapshotTrainingData(config.snapshotDir);
  const start = process.cpuUsage();
  const wall = Date.now();
  const artifact = trainModel(data, { cutoff: asOf });
  const used = process.cpuUsage(start);
  const counts = JSON.stringify(artifact.sampleCounts);
  process.stdout.write(`trainModel on ${data.bills.length} bills to ${asOf}: ${((used.user + used.system) / 1e6).toFixed(1)} s CPU, ${((Date.now() - wall) / 1000).toFixed(1)} s wall; samples ${counts}\n`);
  const predictor = new Predictor(artifact);
  const sessions = sessionsKnownAt(data.sessions, asOf);
  const live = data.bills.filter((b) => predictor.nowcast(b.facts, asOf, sessions).status === 'live');
  const before = process.cpuUsage();
  for (let round = 0; round < 20; round++) for (const b of live) predictor.nowcast(b.facts, asOf, sessions);
  const nowcast = process.cpuUsage(before);
  process.stdout.write(`one nowcast of a live bill: ${((nowcast.user + nowcast.system) / (20 * live.length)).toFixed(1)} µs CPU (${live.length} bills × 20)\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`train-cpu: ${error.message}\n`);
  process.exit(1);
});
