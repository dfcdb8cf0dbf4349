import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { dashboardStatic } from '../../../../../src/doors/http/dashboard-static';
import { chooseEncoding, precompressDirectory } from '../../../../../src/doors/http/precompress';

/** A built dashboard in miniature: index.html, a hashed script, an image; precompressed as the build does. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-web-'));
const SCRIPT = `console.log(${JSON.stringify('a bill '.repeat(500))});\n`;
const INDEX = `<!doctype html><html><head><title>Bill Progress</title><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<div id="app"></div>'.repeat(20)}</body></html>`;
mkdirSync(path.join(dir, 'assets'));
writeFileSync(path.join(dir, 'index.html'), INDEX);
writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
writeFileSync(path.join(dir, 'assets', 'logo-def456.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
writeFileSync(path.join(dir, 'assets', 'tiny-0a1b2c.css'), 'a{}');
const sizes = precompressDirectory(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const app = express().use(dashboardStatic(dir));
/** the body as bytes (superagent undoes the Content-Encoding, so a body that reads right was encoded right; Content-Length counts the bytes on the wire) */
const get = (url: string, acceptEncoding: string) =>
  request(app).get(url).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  }).set('accept-encoding', acceptEncoding);

describe('the dashboard’s files, precompressed at build time', () => {
  it('are sent brotli-compressed to a browser that accepts it, with their own type, caching and Vary', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBeLessThan(SCRIPT.length / 10);
    expect((res.body as Buffer).toString()).toBe(SCRIPT);
  });

  it('are sent gzipped when gzip is all the client takes, and as they are when it takes neither', async () => {
    const gzipped = await get('/assets/index-abc123.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(Number(gzipped.headers['content-length'])).toBeLessThan(SCRIPT.length / 10);
    expect((gzipped.body as Buffer).toString()).toBe(SCRIPT);
    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/index-abc123.js', accept);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect((plain.body as Buffer).toString()).toBe(SCRIPT);
    }
  });

  it('serve the page itself at / compressed and revalidated every time', async () => {
    const res = await get('/', 'br, gzip');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(Number(res.headers['content-length'])).toBeLessThan(INDEX.length / 4);
    expect((res.body as Buffer).toString()).toBe(INDEX);
  });

  it('hold the page to its own origin and forbid framing it, compressed or not', async () => {
    for (const [url, accept] of [['/', 'br'], ['/', 'identity'], ['/index.html', 'gzip']]) {
      const res = await get(url, accept);
      const directives = Object.fromEntries(String(res.headers['content-security-policy']).split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect({ url, accept, directives }).toMatchObject({
        url,
        accept,
        directives: { 'default-src': ["'self'"], 'script-src': ["'self'"], 'style-src': ["'self'"], 'connect-src': ["'self'"], 'object-src': ["'none'"], 'base-uri': ["'none'"], 'frame-ancestors': ["'none'"] },
      });
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('leave files that compression would not shrink (images, tiny files) as they are', async () => {
    for (const file of ['/assets/logo-def456.png', '/assets/tiny-0a1b2c.css']) {
      const res = await get(file, 'br, gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    expect(sizes.files).toBe(3); // the image is not even tried
    expect((await get('/nothing-here.js', 'br')).status).toBe(404);
  });
});

describe('chooseEncoding', () => {
  const both = new Set(['br', 'gzip'] as const);
  it('prefers brotli, honours q=0 and *, and sends nothing unoffered', () => {
    expect(chooseEncoding('gzip, br', both)).toBe('br');
    expect(chooseEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(chooseEncoding('*', both)).toBe('br');
    expect(chooseEncoding('*, br;q=0', both)).toBe('gzip');
    expect(chooseEncoding('br', new Set(['gzip'] as const))).toBeNull();
    expect(chooseEncoding('deflate', both)).toBeNull();
    expect(chooseEncoding(undefined, both)).toBeNull();
  });
});
