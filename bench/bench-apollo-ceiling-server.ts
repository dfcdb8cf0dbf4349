import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import express from 'express';
import { buildSchema } from 'graphql';

/**
 * The GraphQL ceiling of the HTTP benchmark: a bare Apollo Server with the service's production
 * settings (see apollo.adapter.ts) on the service's own schema, answering `prediction` from a fixed
 * object (BENCH_FIXED_PREDICTION, the service's own answer), with nothing else on the way.
 */
const schema = buildSchema(readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'));
const fixed = JSON.parse(process.env.BENCH_FIXED_PREDICTION ?? '{}') as object;

async function main(): Promise<void> {
  const app = express();
  const httpServer = http.createServer(app);
  const apollo = new ApolloServer({
    schema,
    rootValue: { prediction: () => fixed },
    introspection: true,
    persistedQueries: false,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), ApolloServerPluginDrainHttpServer({ httpServer })],
  });
  await apollo.start();
  app.use('/graphql', express.json({ limit: '100kb' }), expressMiddleware(apollo));
  app.get('/ready', (_req, res) => {
    res.json({ ok: true });
  });
  httpServer.listen(Number(process.env.CEILING_PORT ?? 0), '127.0.0.1');
  process.on('SIGTERM', () => void apollo.stop().then(() => process.exit(0)));
}

void main();
