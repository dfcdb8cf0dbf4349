import type { Nowcast } from '../model/serve/predictor';
import type { ModelProvenance } from './model-vintages';
import type { ScheduledEta } from './scheduled-eta';

/** A nowcast as served: the model's, with the ETA of a scheduled next stage (src/services/scheduled-eta.ts). */
export interface PredictionResult extends Nowcast, ScheduledEta {
  /** the model that made it, and whether it had seen anything dated after the reference date */
  model: ModelProvenance;
  billTitle: string;
  originatingHouse: string;
}
