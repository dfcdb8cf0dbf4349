import path from 'node:path';
import { parseArgs } from 'node:util';
import { runAdminCli } from '../admin/cli/run-admin-command';

/** `npm run sync [-- --snapshot DIR]`: ingest or update from a snapshot folder (else the configured source). Never retrains. */
function main(): void {
  let snapshot: string | undefined;
  try {
    snapshot = parseArgs({ options: { snapshot: { type: 'string' } } }).values.snapshot;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: npm run sync [-- --snapshot DIR]\n`);
    process.exit(1);
  }
  // The server may run elsewhere in the file system: send it an absolute path.
  void runAdminCli('sync', snapshot ? { snapshot: path.resolve(snapshot) } : {});
}

main();
