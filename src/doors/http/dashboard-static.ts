import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';
import { AppError } from '../../errors';
import { chooseEncoding, ENCODINGS, findPrecompressed } from './precompress';

/**
 * The built dashboard (web/, built by `npm run build` into dist/dashboard): dist/src/doors/http/../../../dashboard
 * when compiled, dist/dashboard from the sources under ts-jest. Undefined when it has not been built.
 */
export function dashboardDirectory(): string | undefined {
  return [path.resolve(__dirname, '..', '..', '..', 'dashboard'), path.resolve(__dirname, '..', '..', '..', 'dist', 'dashboard')].find((dir) => existsSync(path.join(dir, 'index.html')) && existsSync(path.join(dir, 'assets')));
}

/**
 * The dashboard's page may load only its own origin's files and call only its own /graphql (the
 * Vite build has no inline script or style: Preact sets styles through the DOM, which CSP allows),
 * and no other site may frame it (clickjacking of the account's buttons): frame-ancestors, and
 * X-Frame-Options for browsers that predate it.
 */
export const DASHBOARD_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Serves the dashboard at `/`: assets have content hashes in their names, so they are cached for
 * a year and never revalidated; index.html is revalidated every time, so a new build is seen at
 * once. Text files go out brotli- or gzip-compressed when the browser accepts it, from the
 * variants the build wrote beside them (src/doors/http/precompress.ts), with `Vary: Accept-Encoding`.
 * Nothing is loaded from elsewhere (no CDN): it works offline.
 */
export function dashboardStatic(dir = dashboardDirectory()): RequestHandler {
  if (!dir) {
    return (req, _res, next) => next(req.path === '/' ? new AppError('SERVICE_UNAVAILABLE', 'The dashboard has not been built: run `npm run build`') : undefined);
  }
  const assets = path.join(dir, 'assets') + path.sep;
  const cacheControl = (file: string) => (file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
  const precompressed = findPrecompressed(dir);
  const plain = express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    setHeaders(res: Response, file: string) {
      res.setHeader('Cache-Control', cacheControl(file));
    },
  });
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_CONTENT_SECURITY_POLICY);
    res.setHeader('X-Frame-Options', 'DENY');
    const urlPath = req.path === '/' ? '/index.html' : req.path;
    const offered = (req.method === 'GET' || req.method === 'HEAD') && precompressed.get(urlPath);
    if (!offered) return plain(req, res, next);
    // the answer depends on Accept-Encoding: caches must keep one copy per encoding
    res.vary('Accept-Encoding');
    const encoding = chooseEncoding(req.headers['accept-encoding'], offered);
    if (!encoding) return plain(req, res, next);
    const file = path.join(dir, urlPath);
    res.setHeader('Content-Encoding', encoding);
    res.type(path.extname(file));
    res.sendFile(file + ENCODINGS.find(([name]) => name === encoding)![1], { headers: { 'Cache-Control': cacheControl(file) } }, (error) => {
      if (error && !res.headersSent) {
        res.removeHeader('Content-Encoding');
        plain(req, res, next);
      }
    });
  };
}
