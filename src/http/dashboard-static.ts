import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { AppError } from '../errors';

/**
 * The built dashboard (web/, built by `npm run build` into dist/web): dist/src/http/../../web
 * when compiled, dist/web from the sources under ts-jest. Undefined when it has not been built.
 */
export function dashboardDirectory(): string | undefined {
  return [path.resolve(__dirname, '..', '..', 'web'), path.resolve(__dirname, '..', '..', 'dist', 'web')].find((dir) => existsSync(path.join(dir, 'index.html')) && existsSync(path.join(dir, 'assets')));
}

/**
 * Serves the dashboard at `/`: assets have content hashes in their names, so they are cached for
 * a year and never revalidated; index.html is revalidated every time, so a new build is seen at
 * once. Nothing is loaded from elsewhere (no CDN): it works offline.
 */
export function dashboardStatic(dir = dashboardDirectory()): RequestHandler {
  if (!dir) {
    return (req, _res, next) => next(req.path === '/' ? new AppError('SERVICE_UNAVAILABLE', 'The dashboard has not been built: run `npm run build`') : undefined);
  }
  return express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    setHeaders(res, file) {
      const immutable = file.startsWith(path.join(dir, 'assets') + path.sep);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
