import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The dependency rule of DESIGN.md, checked on every source file's imports (static, dynamic,
 * type-only and require): the layers below, then the rules about packages and files that the
 * layers alone do not say.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE_DIRS = ['src', 'bench'];
/** The dashboard's GraphQL documents, which the gateway allows for the session cookie; the rest of web/ is a separate build. */
const DASHBOARD_DOCUMENTS = 'web/src/operations.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** What a file imports: packages by name, our own files by their path from the repository root. */
export function importsOf(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) =>
    fileName.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), fileName)) : fileName,
  );
}

/** Our own files (an import that leaves the repository is one too, and is in no layer). */
const isOwnFile = (imported: string) => imported.startsWith('../') || [...SOURCE_DIRS, 'web'].includes(imported.split('/')[0]);

/**
 * The layers, top to bottom. Each holds folders and files (a path belongs to the longest entry
 * that contains it) and names the layers below it that it may import besides its own.
 * docs/development.md ("Layout") says the same in words.
 */
const LAYERS: Record<string, { holds: string[]; mayImport: string[] }> = {
  // builds and starts the whole: it may reach anything
  composition: {
    holds: ['src/server.ts', 'src/server-preamble.ts', 'src/start-server.ts', 'src/app.ts', 'src/shutdown.ts', 'src/cli', 'src/admin/cli', 'bench'],
    mayImport: ['doors', 'gateway', 'graphql', 'request', 'jobs', 'services', 'events', 'ingest', 'attempts', 'quota', 'platform', 'entities', 'model evaluate', 'model train', 'model serve', 'core', 'dashboard documents'],
  },
  // a door reaches the resolvers only through the gateway, which runs the schema (the admin door runs the admin commands)
  doors: { holds: ['src/doors', 'src/admin/door'], mayImport: ['gateway', 'request', 'jobs', 'services', 'events', 'ingest', 'quota', 'platform', 'entities', 'model serve', 'core'] },
  // the gateway reads each root field's access rule from the schema, with src/request's rules: never from src/graphql
  gateway: { holds: ['src/gateway'], mayImport: ['request', 'services', 'events', 'ingest', 'quota', 'platform', 'entities', 'model serve', 'core', 'dashboard documents'] },
  graphql: { holds: ['src/graphql'], mayImport: ['request', 'services', 'events', 'ingest', 'quota', 'platform', 'entities', 'model serve', 'core'] },
  // what the gateway hands the resolvers: the request's context, its data loaders, the access rules
  request: { holds: ['src/request'], mayImport: ['services', 'events', 'ingest', 'quota', 'platform', 'entities', 'model serve', 'core'] },
  // timers that call services, nothing else: they compose the layers below, and nothing but a door or the root starts them
  jobs: { holds: ['src/jobs'], mayImport: ['services', 'events', 'ingest', 'quota', 'platform', 'entities', 'model serve', 'core'] },
  // the domain API (and the admin commands, which are its operator's face); it trains models in worker threads, so the training is below it
  services: { holds: ['src/services', 'src/admin/commands'], mayImport: ['events', 'ingest', 'attempts', 'quota', 'platform', 'entities', 'model train', 'model serve', 'core'] },
  // services raise events; the events' rules, payloads and delivery know no service
  events: { holds: ['src/events'], mayImport: ['platform', 'entities', 'model serve', 'core'] },
  // the bills' sources and their sync: they write the entities, and know no service
  ingest: { holds: ['src/ingest'], mayImport: ['platform', 'entities', 'model serve', 'core'] },
  // log-in and sign-up attempts over a sliding window: what the services' log-in throttle and sign-up limit count in
  attempts: { holds: ['src/attempts'], mayImport: ['platform', 'core'] },
  // daily quotas and the burst limit: what a caller may still do
  quota: { holds: ['src/quota'], mayImport: ['platform', 'entities', 'model serve', 'core'] },
  // the database, configuration, errors, logs, health and the service's metrics: no HTTP
  platform: { holds: ['src/db', 'src/health', 'src/metrics', 'src/config.ts', 'src/errors.ts', 'src/logger.ts'], mayImport: ['entities', 'model serve', 'core'] },
  // what is stored: a model version stores the model's artifact, so the entities sit above the model, which never imports them
  entities: { holds: ['src/db/entities'], mayImport: ['model serve', 'core'] },
  // only `npm run evaluate` reaches it: the rolling evaluation and the model card
  'model evaluate': { holds: ['src/model/evaluate'], mayImport: ['model train', 'model serve', 'core'] },
  // the training worker and the train command: a training, its samples, the measures it scores with, champion/challenger
  'model train': { holds: ['src/model/train'], mayImport: ['model serve', 'core'] },
  // what a prediction needs at request time: the features as of a date, the predictor, explanations, trust
  'model serve': { holds: ['src/model/serve'], mayImport: ['core'] },
  // the service's words and small general helpers: they know nothing of how they are stored, served or run
  core: { holds: ['src/common', 'src/vocabulary.ts'], mayImport: [] },
  'dashboard documents': { holds: [DASHBOARD_DOCUMENTS], mayImport: [] },
};

const HOLDERS = Object.entries(LAYERS)
  .flatMap(([layer, { holds }]) => holds.map((held) => ({ layer, held: held.replace(/\.ts$/, '') })))
  .sort((a, b) => b.held.length - a.held.length);

/** The layer of a file or of an import's path (which has no extension); undefined outside every layer. */
export function layerOf(file: string): string | undefined {
  const stem = file.replace(/\.(ts|js)$/, '');
  return HOLDERS.find(({ held }) => stem === held || stem.startsWith(`${held}/`))?.layer;
}

function layerViolation(file: string, imported: string): string | null {
  if (!isOwnFile(imported)) return null;
  const from = layerOf(file);
  const to = layerOf(imported);
  if (!from) return `${file} is in no layer of LAYERS`;
  if (!to) return `${imported} is in no layer of LAYERS`;
  if (to === from || LAYERS[from].mayImport.includes(to)) return null;
  return `${from} may import ${LAYERS[from].mayImport.join(', ') || 'nothing'} besides itself, not ${to}`;
}

interface Rule {
  name: string;
  /** files the rule applies to */
  from: (file: string) => boolean;
  /** imports they may not have */
  forbidden: (imported: string) => boolean;
}

const isPackage = (imported: string, ...names: string[]) => names.some((name) => imported === name || imported.startsWith(`${name}/`));
const isUnder = (imported: string, ...dirs: string[]) => dirs.some((dir) => imported === dir || imported.startsWith(`${dir}/`));
const isWebPackage = (imported: string) => isPackage(imported, 'express', '@as-integrations', 'graphql-ws', 'ws') || imported.startsWith('@apollo/');

/**
 * Files that translate HTTP for the rest of the service. Each non-obvious one says why it is here;
 * a new express import anywhere else fails the rule below.
 */
const EXPRESS_ADAPTERS = new Set([
  'src/app.ts', // composition of the HTTP server
  'bench/bench-ceiling-server.ts', // the benchmark's bare express ceiling
  'bench/bench-apollo-ceiling-server.ts', // the benchmark's bare Apollo Server ceiling
]);

const isDoor = (file: string) => layerOf(file) === 'doors';
const belowTheDoors = (file: string) => !['composition', 'doors', undefined].includes(layerOf(file));

const RULES: Rule[] = [
  {
    // every door (HTTP, WebSocket) calls the same gateway and services: none of them may know a transport
    name: 'the gateway and everything under it are transport-free: no express, Apollo or WebSocket server',
    from: belowTheDoors,
    forbidden: isWebPackage,
  },
  {
    name: 'only adapters import express',
    from: (file) => !isDoor(file) && !EXPRESS_ADAPTERS.has(file),
    forbidden: (imported) => isPackage(imported, 'express'),
  },
  {
    name: 'the model is pure: no ORM, database or Redis client',
    from: (file) => isUnder(file, 'src/model'),
    forbidden: (imported) => isPackage(imported, 'typeorm', 'pg', '@electric-sql/pglite', 'typeorm-pglite', 'ioredis'),
  },
  {
    // the admin CLI answers in about a second because it loads neither GraphQL nor the web server
    name: 'the error core and the admin CLI never import GraphQL',
    from: (file) => file === 'src/errors.ts' || isUnder(file, 'src/admin'),
    forbidden: (imported) => isPackage(imported, 'graphql') || isWebPackage(imported) && !isPackage(imported, 'express'),
  },
];

export function violations(files: readonly string[], read: (file: string) => string = (file) => readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  return files.flatMap((file) => {
    const imports = importsOf(file, read(file));
    const acrossLayers = imports.flatMap((imported) => {
      const violation = layerViolation(file, imported);
      return violation ? [`${file} imports ${imported}: ${violation}`] : [];
    });
    const byRule = RULES.filter((rule) => rule.from(file)).flatMap((rule) => imports.filter(rule.forbidden).map((imported) => `${file} imports ${imported}: ${rule.name}`));
    return [...acrossLayers, ...byRule];
  });
}

const FILES = [...SOURCE_DIRS.flatMap(sourceFiles), DASHBOARD_DOCUMENTS];

describe('dependency rules', () => {
  it('hold for every source file', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(violations(FILES)).toEqual([]);
  });

  it('put every source file in one layer', () => {
    expect(FILES.filter((file) => !layerOf(file))).toEqual([]);
  });

  it('are the layers docs/development.md tells a reader, row for row', () => {
    const text = readFileSync(path.join(ROOT, 'docs', 'development.md'), 'utf8');
    const table = text.slice(text.indexOf('| layer | holds | may import |'));
    const lines = table.split('\n');
    const rows = lines.slice(2, lines.findIndex((line) => !line.startsWith('|')));
    const documented = Object.fromEntries(
      rows.map((row) => {
        const [layer, holds, mayImport] = row.split('|').slice(1).map((cell) => cell.trim());
        const list = (cell: string) => cell.split(',').map((item) => item.trim().replace(/`/g, '')).filter(Boolean);
        return [layer, { holds: list(holds), mayImport: list(mayImport) }];
      }),
    );
    expect(documented).toEqual(LAYERS);
  });

  it('let a layer import only layers below it, so imports never go round in a circle', () => {
    const order = Object.keys(LAYERS);
    const upward = order.flatMap((layer, position) => LAYERS[layer].mayImport.filter((other) => order.indexOf(other) <= position).map((other) => `${layer} → ${other}`));
    expect(upward).toEqual([]);
  });

  it('catch an import up the layers: entities or the model above the core, the gateway into resolvers, events into services, the database into HTTP, services into jobs, quotas into services', () => {
    const planted: Record<string, string> = {
      'src/db/entities/bad.entity.ts': "import type { House } from '../../ingest/bill-record';\nimport { Column } from 'typeorm';",
      'src/model/serve/bad-feature.ts': "import { openDatabase } from '../../db/database';",
      'src/gateway/bad-step.ts': "import { accessOf } from '../graphql/access';\nimport type { RequestContext } from '../request/context';",
      'src/events/bad-rule.ts': "import { isImminent } from '../services/imminent';\nimport type { EventType } from '../vocabulary';",
      'src/db/bad-open.ts': "const { listenNotReady } = await import('../doors/http/not-ready-server');",
      'src/doors/bad-door.ts': "import { Access } from '../graphql/access';\nimport { Gateway } from '../gateway/pipeline';",
      'src/jobs/reads-outside.ts': "import data from '../../../shared/data';",
      // the two imports that ran up the layers before each layer had its own row
      'src/services/services.ts': "import { EventRefresh } from '../jobs/refresh';",
      'src/quota/quota.service.ts': "import type { AuthenticatedUser } from '../services/api-key.service';",
    };
    expect(violations(Object.keys(planted), (file) => planted[file])).toEqual([
      'src/db/entities/bad.entity.ts imports src/ingest/bill-record: entities may import model serve, core besides itself, not ingest',
      'src/model/serve/bad-feature.ts imports src/db/database: model serve may import core besides itself, not platform',
      'src/gateway/bad-step.ts imports src/graphql/access: gateway may import request, services, events, ingest, quota, platform, entities, model serve, core, dashboard documents besides itself, not graphql',
      'src/events/bad-rule.ts imports src/services/imminent: events may import platform, entities, model serve, core besides itself, not services',
      'src/db/bad-open.ts imports src/doors/http/not-ready-server: platform may import entities, model serve, core besides itself, not doors',
      'src/doors/bad-door.ts imports src/graphql/access: doors may import gateway, request, jobs, services, events, ingest, quota, platform, entities, model serve, core besides itself, not graphql',
      'src/jobs/reads-outside.ts imports ../shared/data: ../shared/data is in no layer of LAYERS',
      'src/services/services.ts imports src/jobs/refresh: services may import events, ingest, attempts, quota, platform, entities, model train, model serve, core besides itself, not jobs',
      'src/quota/quota.service.ts imports src/services/api-key.service: quota may import platform, entities, model serve, core besides itself, not services',
    ]);
    // a new file at src's root belongs to no layer until the table says which: 'put every source file in one layer' fails on it
    expect(layerOf('src/stray.ts')).toBeUndefined();
  });

  it('catch an import up the model’s parts: serving into the training, the training or a service into the evaluation, the core into the entities', () => {
    const planted: Record<string, string> = {
      // the imports that ran up before the model had a row for each part
      'src/model/serve/predictor.ts': "import { ensembleRun, ensembleRunAll, etaFromOutputs } from '../train/train';",
      'src/model/train/challenger.ts': "import { lastCompleteSessions } from '../evaluate/rolling-evaluation';\nimport type { Predictor } from '../serve/predictor';",
      'src/services/trust.service.ts': "import { type Trust, trustFor, type TrustTable } from '../model/evaluate/trust-table';",
      'src/common/authenticated-user.ts': "import type { Tier } from '../db/entities/account.entity';",
      // a helper of the model's outside its parts
      'src/model/stray-helper.ts': "import { addDays } from '../common/dates';",
    };
    expect(violations(Object.keys(planted), (file) => planted[file])).toEqual([
      'src/model/serve/predictor.ts imports src/model/train/train: model serve may import core besides itself, not model train',
      'src/model/train/challenger.ts imports src/model/evaluate/rolling-evaluation: model train may import model serve, core besides itself, not model evaluate',
      'src/services/trust.service.ts imports src/model/evaluate/trust-table: services may import events, ingest, attempts, quota, platform, entities, model train, model serve, core besides itself, not model evaluate',
      'src/common/authenticated-user.ts imports src/db/entities/account.entity: core may import nothing besides itself, not entities',
      'src/model/stray-helper.ts imports src/common/dates: src/model/stray-helper.ts is in no layer of LAYERS',
    ]);
  });

  it('catch a transport below the doors, a stray express import, the model on the database and GraphQL in the admin CLI', () => {
    const planted: Record<string, string> = {
      'src/services/bad.service.ts': "import type { Request } from 'express';",
      'src/model/train/bad.ts': "import { ApolloServer } from '@apollo/server';\nimport { Repository } from 'typeorm';",
      'src/jobs/bad-job.ts': "import express from 'express';",
      'src/doors/rest/fine.router.ts': "import express from 'express';",
      'src/errors.ts': "import { GraphQLError } from 'graphql';",
      'src/gateway/bad-step.ts': "import type { RequestHandler } from 'express';\nimport { useServer } from 'graphql-ws/use/ws';",
      'src/doors/http/fine-middleware.ts': "import type { RequestHandler } from 'express';",
    };
    const TRANSPORT = 'the gateway and everything under it are transport-free: no express, Apollo or WebSocket server';
    expect(violations(Object.keys(planted), (file) => planted[file])).toEqual([
      `src/services/bad.service.ts imports express: ${TRANSPORT}`,
      'src/services/bad.service.ts imports express: only adapters import express',
      `src/model/train/bad.ts imports @apollo/server: ${TRANSPORT}`,
      'src/model/train/bad.ts imports typeorm: the model is pure: no ORM, database or Redis client',
      `src/jobs/bad-job.ts imports express: ${TRANSPORT}`,
      'src/jobs/bad-job.ts imports express: only adapters import express',
      'src/errors.ts imports graphql: the error core and the admin CLI never import GraphQL',
      `src/gateway/bad-step.ts imports express: ${TRANSPORT}`,
      `src/gateway/bad-step.ts imports graphql-ws/use/ws: ${TRANSPORT}`,
      'src/gateway/bad-step.ts imports express: only adapters import express',
    ]);
  });

  it('leave reading a caller’s credential to the gateway: no other source names the credential headers', () => {
    // logger.ts names them to redact them, the OpenAPI document to describe them, CORS to let browsers
    // send them; the admin door, the CLI that calls it and /metrics use the operator's own token; the benchmark is a client
    const allowed = new Set(['src/gateway/credential.ts', 'src/logger.ts', 'src/doors/rest/openapi/components.ts', 'src/doors/rest/cors.ts', 'src/admin/door/admin-endpoint.ts', 'src/doors/http/http-metrics.ts', 'src/admin/cli/run-admin-command.ts', 'bench/bench-http.ts']);
    const readers = FILES.filter((file) => !allowed.has(file) && /['"`](authorization|x-api-key)['"`]|headers\.authorization/i.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('leave reading the dashboard’s session cookie to the gateway: no source outside src/gateway names the Cookie header or the cookie', () => {
    // logger.ts names it to redact it
    const readers = FILES.filter((file) => !isUnder(file, 'src/gateway') && file !== 'src/logger.ts' && /['"`]cookie['"`]|headers\.cookie|bp_session|SESSION_COOKIE|session-cookie/i.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
