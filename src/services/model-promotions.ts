import type { DataSource } from 'typeorm';
import { ModelVersionEntity } from '../db/entities/model-version.entity';
import { FEATURE_SCHEMA_VERSION } from '../model/serve/features';
import { servedVersionId } from './model-versions';
import type { ServingModel } from './model-serving';

// The model service's job of following promotions made anywhere: `npm run train`, a scheduled
// retrain or `npm run admin -- promote`, in this process or another (the server's state poll
// calls it every few seconds). The choice lives in the database (model-versions.ts), so every
// instance serves the same version without a restart.

/**
 * Serves the version chosen to serve if it is not the one served, and reads again which stored
 * versions answer past dates; true when a version serves.
 */
export async function followPromotions(dataSource: DataSource, serving: ServingModel): Promise<boolean> {
  const [chosen] = await Promise.all([servedVersionId(dataSource), serving.shelf.reload()]);
  if (chosen === null) return serving.activeVersion() !== null;
  if (serving.activeVersion()?.id === chosen) return true;
  const version = await dataSource.getRepository(ModelVersionEntity).findOneByOrFail({ id: chosen, featureSchemaVersion: FEATURE_SCHEMA_VERSION });
  serving.activate(version);
  return true;
}
