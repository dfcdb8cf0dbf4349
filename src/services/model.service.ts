import type { DataSource } from 'typeorm';
import type { TrainingOptions } from '../model/train/train';
import type { ServiceClock } from '../common/clock';
import type { Logger } from '../logger';
import type { Readiness } from '../health/readiness';
import type { Predictor } from '../model/serve/predictor';
import type { ModelProvenance } from './model-vintages';
import { trainInWorker } from './train-in-worker';
import { MODELS_LOADING, type ModelVersionSummary, ServingModel } from './model-serving';
import { followPromotions } from './model-promotions';
import { ModelTraining, type RetrainOutcome, type Trainer } from './model-training';
import { type VintageRun, VintageTraining } from './vintage-training';

export { MODELS_LOADING, type ModelVersionSummary } from './model-serving';
export type { RetrainOutcome, Trainer } from './model-training';
export type { VintageRun } from './vintage-training';

const TRAINING_FAILED = 'model training failed (see the server log): run `npm run train` to retry';

/**
 * The model service: its jobs composed, each in a module of its own. Serving (model-serving.ts:
 * which version answers a date), training the serving model and the scheduled challenger
 * (model-training.ts), the sessions' vintages (vintage-training.ts) and following promotions made
 * here or in another process (model-promotions.ts). Versions live in the database; the accepted
 * one of the code's feature schema promoted last is served (model-versions.ts). New data alone
 * never retrains: the retrain schedule does.
 */
export class ModelService {
  private readonly serving: ServingModel;
  private readonly training: ModelTraining;
  private readonly vintages: VintageTraining;
  private trainingAtStart: Promise<unknown> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly readiness: Readiness,
    clock: ServiceClock,
    private readonly logger: Logger,
    /** test hook: smaller networks or fewer iterations */
    trainingOptions: Omit<TrainingOptions, 'cutoff' | 'onProgress'> = {},
    trainer: Trainer = trainInWorker,
    /** PostgreSQL: other instances may train the same vintages */
    sharedDatabase = false,
  ) {
    this.serving = new ServingModel(dataSource, readiness, logger);
    const deps = { dataSource, clock, logger, serving: this.serving, trainingOptions, trainer, stopping: this.stopping.signal };
    this.training = new ModelTraining(deps);
    this.vintages = new VintageTraining(deps, this.training, sharedDatabase);
  }

  /** Called with each version that starts serving (prediction caches key on the version). */
  onSwitch(listener: (version: ModelVersionSummary) => void): void {
    this.serving.onSwitch(listener);
  }

  /**
   * Serves the newest stored version, or trains one in the background when there is none.
   * Safe to call again (each time data becomes ready): it does nothing while a version serves or trains.
   */
  async start(options: { trainIfMissing: boolean }): Promise<void> {
    if (this.stopping.signal.aborted || this.training.underWay() || (await this.followPromotions())) return;
    // the shutdown may have begun while the stored versions were read: no training starts after it
    if (this.stopping.signal.aborted) return;
    this.readiness.block('model', MODELS_LOADING);
    if (options.trainIfMissing && !this.training.underWay()) {
      // kept so that idle() waits for this log line too: nothing is logged after the shutdown's last line
      this.trainingAtStart = this.train().catch((error: Error) => {
        if (this.stopping.signal.aborted) return this.logger.info('training stopped by the shutdown');
        if (!this.serving.activeVersion()) this.readiness.block('model', TRAINING_FAILED);
        this.logger.error({ err: error }, 'training at start failed');
      });
    }
  }

  /** Serves the version chosen to serve (here or by another process) if it is not the one served; true when one is served. */
  followPromotions(): Promise<boolean> {
    return followPromotions(this.dataSource, this.serving);
  }

  /** Stops a training under way without saving it, and refuses new ones: the process is shutting down. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves when no training is under way (shutdown waits for it: the worker writes nothing, the save does). */
  async idle(): Promise<void> {
    await this.training.servingIdle();
    await this.trainingAtStart;
    await this.vintages.idle();
  }

  /** Resolves when no serving model is training (vintages may go on training in the background). */
  servingIdle(): Promise<void> {
    return this.training.servingIdle();
  }

  /** The predictor being served; 503 while none is ready. */
  predictor(): { predictor: Predictor; version: ModelVersionSummary } {
    return this.serving.predictor();
  }

  activeVersion(): ModelVersionSummary | null {
    return this.serving.activeVersion();
  }

  /** Which model answers a nowcast at `date` (ServingModel.provenanceFor). */
  provenanceFor(date: string): ModelProvenance {
    return this.serving.provenanceFor(date);
  }

  predictorOf(provenance: ModelProvenance): Promise<Predictor> {
    return this.serving.predictorOf(provenance);
  }

  modelsState(): string {
    return this.serving.modelsState();
  }

  /** Trains a serving version now (ModelTraining.train). */
  train(): Promise<ModelVersionSummary> {
    return this.training.train();
  }

  /** A scheduled retrain, champion/challenger (ModelTraining.retrain). */
  retrain(): Promise<RetrainOutcome> {
    return this.training.retrain();
  }

  /** The missing session vintages, in the background (VintageTraining.trainVintages). */
  trainVintages(): Promise<VintageRun> {
    return this.vintages.trainVintages();
  }
}
