import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The dependency rule of DESIGN.md, checked on every source file's imports (static, dynamic,
 * type-only and require): adapters → gateway → schema → resolvers → services → entities, model.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE_DIRS = ['src', 'bench', 'resolvers', 'rest-compat', 'model', 'entities'];

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

interface Rule {
  name: string;
  /** files the rule applies to */
  from: (file: string) => boolean;
  /** imports they may not have */
  forbidden: (imported: string) => boolean;
}

const isPackage = (imported: string, ...names: string[]) => names.some((name) => imported === name || imported.startsWith(`${name}/`));
const isUnder = (imported: string, ...dirs: string[]) => dirs.some((dir) => imported === dir || imported.startsWith(`${dir}/`));
const isWebPackage = (imported: string) => isPackage(imported, 'express', '@apollo', '@as-integrations', 'graphql-ws', 'ws') || imported.startsWith('@apollo/');

/**
 * Files that translate HTTP for the rest of the service. Each non-obvious one says why it is here;
 * a new express import anywhere else fails the rule below.
 */
const EXPRESS_ADAPTERS = new Set([
  'src/app.ts', // composition of the HTTP server
  'bench/bench-ceiling-server.ts', // the benchmark's bare express ceiling
  'bench/bench-apollo-ceiling-server.ts', // the benchmark's bare Apollo Server ceiling
]);

/** Folders of adapters: the doors (GraphQL over HTTP and WebSocket, the admin endpoint, the middleware the HTTP doors share) and REST's routes. */
const ADAPTER_DIRS = ['rest-compat', 'src/doors'];

const RULES: Rule[] = [
  {
    name: 'services and the model never import express, Apollo, resolvers, REST adapters or the gateway',
    from: (file) => isUnder(file, 'src/services', 'model'),
    forbidden: (imported) => isWebPackage(imported) || isUnder(imported, 'resolvers', 'rest-compat', 'src/gateway') || imported === 'src/app' || imported === 'src/doors/graphql-http/apollo.adapter',
  },
  {
    name: 'only adapters import express',
    from: (file) => !isUnder(file, ...ADAPTER_DIRS) && !EXPRESS_ADAPTERS.has(file),
    forbidden: (imported) => isPackage(imported, 'express'),
  },
  {
    // every door (HTTP, WebSocket) calls the same steps: none of them may know a transport
    name: 'the gateway is transport-free: it never imports express, Apollo or a WebSocket server',
    from: (file) => isUnder(file, 'src/gateway'),
    forbidden: isWebPackage,
  },
  {
    // the admin CLI answers in about a second because it loads neither GraphQL nor the web server
    name: 'the error core and the admin CLI never import GraphQL',
    from: (file) => file === 'src/errors.ts' || isUnder(file, 'src/admin', 'src/doors/admin') || ['src/cli/admin.ts', 'src/cli/run-admin-command.ts', 'src/cli/run-admin-directly.ts'].includes(file),
    forbidden: (imported) => isPackage(imported, 'graphql') || isWebPackage(imported) && !isPackage(imported, 'express'),
  },
  {
    name: 'the gateway, resolvers and services never import an adapter',
    from: (file) => isUnder(file, 'src/gateway', 'resolvers', 'src/services', 'model', 'entities'),
    forbidden: (imported) => isUnder(imported, 'rest-compat') || imported === 'src/app' || imported === 'src/doors/graphql-http/apollo.adapter',
  },
];

export function violations(files: readonly string[], read: (file: string) => string = (file) => readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  return files.flatMap((file) =>
    RULES.filter((rule) => rule.from(file)).flatMap((rule) => importsOf(file, read(file)).filter(rule.forbidden).map((imported) => `${file} imports ${imported}: ${rule.name}`)),
  );
}

const FILES = SOURCE_DIRS.flatMap(sourceFiles);

describe('dependency rules', () => {
  it('hold for every source file', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(violations(FILES)).toEqual([]);
  });

  it('catch a service that imports express, a resolver or the gateway, and a stray express import', () => {
    const planted: Record<string, string> = {
      'src/services/bad.service.ts': "import type { Request } from 'express';\nimport { WatchlistResolver } from '../../resolvers/watchlist.resolver';\nconst g = await import('../gateway/pipeline');",
      'model/bad.ts': "import { ApolloServer } from '@apollo/server';",
      'src/jobs/bad-job.ts': "import express from 'express';",
      'rest-compat/fine.router.ts': "import express from 'express';",
      'src/errors.ts': "import { GraphQLError } from 'graphql';",
      'src/gateway/bad-step.ts': "import type { RequestHandler } from 'express';\nimport { useServer } from 'graphql-ws/use/ws';",
      'src/doors/http/fine-middleware.ts': "import type { RequestHandler } from 'express';",
    };
    expect(violations(Object.keys(planted), (file) => planted[file])).toEqual([
      'src/services/bad.service.ts imports express: services and the model never import express, Apollo, resolvers, REST adapters or the gateway',
      'src/services/bad.service.ts imports resolvers/watchlist.resolver: services and the model never import express, Apollo, resolvers, REST adapters or the gateway',
      'src/services/bad.service.ts imports src/gateway/pipeline: services and the model never import express, Apollo, resolvers, REST adapters or the gateway',
      'src/services/bad.service.ts imports express: only adapters import express',
      'model/bad.ts imports @apollo/server: services and the model never import express, Apollo, resolvers, REST adapters or the gateway',
      'src/jobs/bad-job.ts imports express: only adapters import express',
      'src/errors.ts imports graphql: the error core and the admin CLI never import GraphQL',
      'src/gateway/bad-step.ts imports express: only adapters import express',
      'src/gateway/bad-step.ts imports express: the gateway is transport-free: it never imports express, Apollo or a WebSocket server',
      'src/gateway/bad-step.ts imports graphql-ws/use/ws: the gateway is transport-free: it never imports express, Apollo or a WebSocket server',
    ]);
  });

  it('leave reading a caller’s credential to the gateway: no other source names the credential headers', () => {
    // logger.ts names them to redact them, the OpenAPI document to describe them, CORS to let browsers
    // send them; the admin door, the CLI that calls it and /metrics use the operator's own token; the benchmark is a client
    const allowed = new Set(['src/gateway/credential.ts', 'src/logger.ts', 'rest-compat/openapi/components.ts', 'rest-compat/cors.ts', 'src/doors/admin/admin-endpoint.ts', 'src/doors/http/http-metrics.ts', 'src/cli/run-admin-command.ts', 'bench/bench-http.ts']);
    const readers = FILES.filter((file) => !allowed.has(file) && /['"`](authorization|x-api-key)['"`]|headers\.authorization/i.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('leave reading the dashboard’s session cookie to the gateway: no source outside src/gateway names the Cookie header or the cookie', () => {
    // logger.ts names it to redact it
    const readers = FILES.filter((file) => !isUnder(file, 'src/gateway') && file !== 'src/logger.ts' && /['"`]cookie['"`]|headers\.cookie|bp_session|SESSION_COOKIE|session-cookie/i.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
