import { parseArgs } from 'node:util';
import { ADMIN_COMMANDS } from '../admin/admin-commands';
import { runAdminCli } from './run-admin-command';

const USAGE = `usage: npm run admin -- <command> [options]
  create-user --email E --tier free|pilot|pro
  create-key  --email E [--name N]
  set-tier    --email E --tier free|pilot|pro
  revoke-key  --prefix P
  list-users`;

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { email: { type: 'string' }, tier: { type: 'string' }, name: { type: 'string' }, prefix: { type: 'string' } },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    process.exit(1);
  }
  const [command, ...rest] = parsed.positionals;
  if (!command || rest.length || command === 'sync' || command === 'train' || !(ADMIN_COMMANDS as readonly string[]).includes(command)) {
    const detail = command ? `unknown command "${[command, ...rest].join(' ')}"` : 'a command is required';
    process.stderr.write(`${detail}\n${USAGE}\n`);
    process.stdout.write(`${JSON.stringify({ error: detail })}\n`);
    process.exit(1);
  }
  void runAdminCli(command, parsed.values);
}

main();
