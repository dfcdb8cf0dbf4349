import { runAdminCli } from '../admin/cli/run-admin-command';

/**
 * `npm run train`: trains a model version on the stored data (facts up to the service's today)
 * and stores it. A running server switches to it without a restart: on the embedded database it
 * trains it itself (asked through its admin endpoint), on PostgreSQL it notices the new version.
 * `npm run train -- --vintages`: trains every missing session vintage instead (the models that
 * answer past dates), newest session first; a running server holding the database does it in
 * the background and answers at once.
 */
void runAdminCli('train', { vintages: process.argv.slice(2).includes('--vintages') });
