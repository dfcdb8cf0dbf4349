import { parseArgs } from 'node:util';
import { readPassword } from './read-password';
import { runAdminCli } from './run-admin-command';

/* `npm run admin`: the operator's entry, its help and its arguments. */

interface CommandHelp {
  options: readonly ('email' | 'tier' | 'name' | 'prefix' | 'to' | 'from' | 'session' | 'announced' | 'end')[];
  synopsis: string;
  about: string;
}

/** The operator's commands; their names and JSON output are a stable interface. */
const COMMANDS: Record<string, CommandHelp> = {
  'create-user': { options: ['email', 'tier'], synopsis: '--email E --tier free|pilot|pro', about: 'Creates an account. Prints {id, email, tier}.' },
  'create-key': {
    options: ['email', 'name'],
    synopsis: '--email E [--name N]',
    about: 'Issues an API key to a Pilot or Pro account (refused for Free). Prints {api_key, prefix, id}: the key is shown this once, only its hash is kept.',
  },
  'set-tier': { options: ['email', 'tier'], synopsis: '--email E --tier free|pilot|pro', about: 'Changes an account\'s tier, at once on a running server. Prints {id, email, tier}.' },
  'set-password': {
    options: ['email'],
    synopsis: '--email E',
    about:
      'Sets the dashboard password of an account (one made by create-user has none), and ends its browser sessions. The password is read from stdin (e.g. `printf %s "$PW" | npm run admin -- set-password --email E`), or typed twice at a hidden prompt on a terminal; never from the command line. 10 to 200 characters. Prints {id, email, tier, password_set, sessions_ended}.',
  },
  'revoke-key': { options: ['prefix'], synopsis: '--prefix bp_0123abcd', about: 'Revokes a key, at once on a running server. Prints {prefix, revoked_at}.' },
  'list-users': { options: [], synopsis: '', about: 'Prints {users: [{id, email, tier}]}.' },
  'list-keys': {
    options: ['email'],
    synopsis: '--email E',
    about: 'Prints an account\'s keys: {email, keys: [{prefix, name, created_at, last_used_at, revoked_at}]}; never a key or its hash.',
  },
  'delete-user': {
    options: ['email'],
    synopsis: '--email E',
    about: 'Deletes an account with its keys, watchlists, thresholds, alert history and quota counters; its keys stop working at once on a running server. Prints {id, email, tier, deleted, keys, watchlists}.',
  },
  stats: { options: [], synopsis: '', about: 'Prints {bills, users, keys: {active, revoked}, model_version, last_sync}.' },
  backup: {
    options: ['to'],
    synopsis: '--to FILE',
    about: 'Writes the embedded database to FILE (a gzipped tar, mode 0600), through the running server if one holds DATA_DIR. Prints {backup, bytes, taken_at}. With DATABASE_URL: use pg_dump.',
  },
  restore: {
    options: ['from'],
    synopsis: '--from FILE',
    about: 'Replaces the embedded database in DATA_DIR with a backup; the database found there is moved aside, not deleted. Refused while a server runs on DATA_DIR. Prints {restored_from, data_dir, previous_data, bills, users, keys}. With DATABASE_URL: use pg_restore.',
  },
  models: {
    options: [],
    synopsis: '',
    about:
      'Lists the model versions, newest first: {serving, versions: [{id, feature_schema_version, training_cutoff, created_at, status (accepted|rejected), promoted_at, serving, challenge, calibration_period, vintage}]}. challenge holds a scheduled retrain\'s Brier scores against the version serving then, and each check; vintage ({session_id}) marks a session\'s point-in-time model, trained on the facts dated before the session began, which answers dates before the serving model\'s cutoff (`npm run train -- --vintages`).',
  },
  promote: {
    options: [],
    synopsis: 'VERSION',
    about: 'Serves model version VERSION (e.g. a rollback to an earlier one, or a rejected one), on every instance within seconds. Prints {serving, previous}.',
  },
  'announce-dissolution': {
    options: ['session', 'announced', 'end'],
    synopsis: '--session ID --announced YYYY-MM-DD --end YYYY-MM-DD',
    about:
      'Records that session ID (a Bills API session id) ends by a dissolution for a general election on --end, known from --announced (the day the election was called, or its date fixed in law); replaces one recorded before. The live Bills API says nothing of dissolutions: nowcasts dated on or after --announced read the session\'s end (the days left for a wash-up) once the next sync has taken the record in; those dated before it never do. Prints {session_id, name, announced, end_date, recorded_by, recorded_at}.',
  },
  'list-dissolutions': {
    options: [],
    synopsis: '',
    about: 'Prints {dissolutions: [{session_id, name, announced, end_date, recorded_by (source|operator), recorded_at}]}: those read from a snapshot\'s sessions and those recorded with announce-dissolution.',
  },
  'remove-dissolution': {
    options: ['session'],
    synopsis: '--session ID',
    about: 'Removes session ID\'s recorded dissolution (one read from a snapshot comes back with its next sync); nowcasts stop reading it after the next sync. Prints {session_id, removed}.',
  },
  replay: {
    options: ['from', 'to'],
    synopsis: '--from YYYY-MM-DD --to YYYY-MM-DD',
    about:
      'Moves the running server\'s day from --from to --to, one day at a time, running the events refresh for each with only the facts dated up to that day; the server stays on --to until restart. Prints a line per day on stderr ({day, bills, events, ms}), then {from, to, days, events, events_by_type, ms_per_day}.',
  },
};

const usageLine = (name: string) => `  ${name.padEnd(14)}${name.length >= 14 ? ' ' : ''}${COMMANDS[name].synopsis}`;
const USAGE = `usage: npm run admin -- <command> [options]     (npm run admin -- <command> --help for one command)
${Object.keys(COMMANDS).map(usageLine).join('\n')}
Each command prints one JSON object on the last line of stdout; on failure {"error": "…"} and exit code 1.`;

function fail(detail: string, usage: string): never {
  process.stderr.write(`${detail}\n${usage}\n`);
  process.stdout.write(`${JSON.stringify({ error: detail })}\n`);
  process.exit(1);
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        tier: { type: 'string' },
        name: { type: 'string' },
        prefix: { type: 'string' },
        to: { type: 'string' },
        from: { type: 'string' },
        session: { type: 'string' },
        announced: { type: 'string' },
        end: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail((error as Error).message, USAGE);
  }
  const { help, ...options } = parsed.values;
  const [command, ...rest] = parsed.positionals;
  if (help && (!command || command === 'help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // promote takes the version as its one operand
  const operand = command === 'promote' && rest.length === 1 ? rest.pop() : undefined;
  if (!command || rest.length || !Object.hasOwn(COMMANDS, command)) {
    fail(command ? `unknown command "${[command, ...rest].join(' ')}"` : 'a command is required', USAGE);
  }
  const spec = COMMANDS[command];
  if (help) {
    process.stdout.write(`usage: npm run admin -- ${command} ${spec.synopsis}\n${spec.about}\n`);
    return;
  }
  const unexpected = Object.keys(options).filter((name) => !(spec.options as readonly string[]).includes(name));
  if (unexpected.length) fail(`${command} takes no --${unexpected.join(', --')}`, usageLine(command));
  if (command === 'set-password') void setPassword(options);
  else if (command === 'promote') {
    if (operand === undefined) fail('promote needs a model version: npm run admin -- promote VERSION (see npm run admin -- models)', usageLine('promote'));
    void runAdminCli(command, { version: operand });
  } else void runAdminCli(command, options);
}

async function setPassword(options: Record<string, unknown>): Promise<void> {
  if (!options.email) fail('--email is required', usageLine('set-password'));
  const password = await readPassword();
  if (password === null) fail('the two passwords differ: nothing was changed', usageLine('set-password'));
  if (!password) fail('set-password reads the new password from stdin, or from a prompt on a terminal: none was given', usageLine('set-password'));
  await runAdminCli('set-password', { ...options, password });
}

main();
