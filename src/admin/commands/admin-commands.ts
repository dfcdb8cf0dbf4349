import type { DataSource } from 'typeorm';
import { badInput } from '../../errors';
import { SnapshotFormatError } from '../../ingest/snapshot-format-error';
import type { IngestReport } from '../../ingest/ingest.service';
import type { AccountService } from '../../services/account.service';
import type { ApiKeyService } from '../../services/api-key.service';
import type { SessionService } from '../../services/session.service';
import { collectStats } from './admin-stats';
import { writeBackup } from './backup';
import type { ReplayDay } from '../../services/replay';

/* The admin commands themselves, one implementation whether the CLI runs them or a running server does. */

export interface AdminDeps {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  /** dashboard passwords (set-password) */
  sessions: Pick<SessionService, 'setPassword'>;
  dataSource: DataSource;
  /** ingests from a snapshot folder, or from the configured source when none is given */
  sync: (snapshotDir?: string) => Promise<IngestReport>;
  /** trains a model version on the stored data and serves it; with `vintages`, the missing session vintages instead */
  train: (options: { vintages: boolean }) => Promise<object>;
  /** the embedded database as a gzipped tar; absent on PostgreSQL */
  dump?: () => Promise<Blob>;
  /** moves the service's day through a period, refreshing events each day (services/replay.ts) */
  replay: (from: unknown, to: unknown, onDay?: (progress: ReplayDay) => void) => Promise<object>;
}

/** What the admin CLI runs itself or asks a running server to run (restore never runs inside a server). */
export const ADMIN_COMMANDS = ['create-user', 'create-key', 'set-tier', 'revoke-key', 'list-users', 'list-keys', 'delete-user', 'stats', 'backup', 'sync', 'train', 'replay', 'set-password', 'models', 'promote', 'announce-dissolution', 'list-dissolutions', 'remove-dissolution'] as const;
export type AdminCommand = (typeof ADMIN_COMMANDS)[number];

export const optionalString = (value: unknown, name: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value) throw badInput(`--${name} needs a value`);
  return value;
};

export const requiredString = (value: unknown, name: string): string => {
  const given = optionalString(value, name);
  if (given === undefined) throw badInput(`--${name} is required`);
  return given;
};

/** One implementation of every admin command, whether the CLI runs it itself or asks the running server. */
export async function runAdminCommand(deps: AdminDeps, command: string, args: Record<string, unknown>, onProgress?: (progress: ReplayDay) => void): Promise<object> {
  switch (command as AdminCommand) {
    case 'create-user':
      return deps.accounts.create(args.email, args.tier);
    case 'create-key':
      return deps.apiKeys.create(args.email, optionalString(args.name, 'name'));
    case 'set-tier':
      return deps.accounts.setTier(args.email, args.tier);
    case 'revoke-key':
      return deps.apiKeys.revoke(args.prefix);
    case 'set-password': {
      const { account, sessionsEnded } = await deps.sessions.setPassword(args.email, args.password);
      return { ...account, password_set: true, sessions_ended: sessionsEnded };
    }
    case 'list-users':
      return { users: await deps.accounts.list() };
    case 'list-keys':
      return deps.apiKeys.listFor(args.email);
    case 'delete-user':
      return deps.accounts.delete(args.email);
    case 'stats':
      return collectStats(deps.dataSource);
    case 'backup':
      return writeBackup(deps.dump, requiredString(args.to, 'to'));
    case 'sync':
      try {
        return await deps.sync(optionalString(args.snapshot, 'snapshot'));
      } catch (error) {
        // a missing or malformed snapshot is the operator's to fix: say what is wrong with it
        if (error instanceof SnapshotFormatError) throw badInput(error.message);
        throw error;
      }
    case 'train':
      return deps.train({ vintages: args.vintages === true });
    case 'replay':
      return deps.replay(args.from, args.to, onProgress);
    // the choice is stored: every instance serves a promoted version within its 2 s poll.
    // Loaded when run: an account command loads no model code.
    case 'models':
      return (await import('../../services/model-versions')).listModelVersions(deps.dataSource);
    case 'promote':
      return (await import('../../services/model-versions')).promoteModelVersion(deps.dataSource, args.version);
    // loaded when run, like the model commands: an account command loads nothing of the sessions
    case 'announce-dissolution':
      return (await import('./dissolutions')).announceDissolution(deps.dataSource, args);
    case 'list-dissolutions':
      return (await import('./dissolutions')).listDissolutions(deps.dataSource);
    case 'remove-dissolution':
      return (await import('./dissolutions')).removeDissolution(deps.dataSource, args);
    default:
      throw badInput(`unknown command "${command}"; commands: ${ADMIN_COMMANDS.join(', ')}`);
  }
}
