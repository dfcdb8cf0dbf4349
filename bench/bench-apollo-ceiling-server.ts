import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSchema } from 'graphql';

/**
 * The GraphQL ceiling of the HTTP benchmark: the Apollo Server a user would write first
 * (`startStandaloneServer`, its defaults, run with NODE_ENV=production) on the service's own
 * schema, answering `prediction` from a fixed object (BENCH_FIXED_PREDICTION, the service's own
 * answer), with nothing else on the way.
 */
const schema = buildSchema(readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'));
const fixed = JSON.parse(process.env.BENCH_FIXED_PREDICTION ?? '{}') as object;

async function main(): Promise<void> {
  const apollo = new ApolloServer({ schema, rootValue: { prediction: () => fixed }, stopOnTerminationSignals: false });
  await startStandaloneServer(apollo, { listen: { port: Number(process.env.CEILING_PORT ?? 0), host: '127.0.0.1' } });
  process.on('SIGTERM', () => void apollo.stop().then(() => process.exit(0)));
}

void main();
