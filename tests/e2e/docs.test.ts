import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const swaggerUiFile = (file: string) => readFileSync(path.join(path.dirname(require.resolve('swagger-ui-dist/package.json')), file));

/** every URL the page loads: scripts, stylesheets, and the document it renders */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href|data-openapi-url)="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

describe('GET /docs', () => {
  it('answers an HTML page, without a key, that loads only this server’s own files', async () => {
    const res = await t.http().get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const urls = referencedUrls(res.text);
    expect(urls).toEqual(['/docs/assets/favicon-32x32.png', '/docs/assets/swagger-ui.css', '/api/v1/openapi.json', '/docs/assets/swagger-ui-bundle.js', '/docs/init.js']);
    for (const url of urls) expect(url).toMatch(/^\/[^/]/);
  });

  it('forbids the browser to load anything from another origin or to run inline scripts', async () => {
    const policy = String((await t.http().get('/docs')).headers['content-security-policy']);
    const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    for (const values of Object.values(directives)) for (const value of values) expect(value).not.toMatch(/^(https?:|\*|\/\/)/);
  });

  it('may not be framed by any page (clickjacking), by CSP and by X-Frame-Options for older browsers', async () => {
    const res = await t.http().get('/docs');
    expect(String(res.headers['content-security-policy'])).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves Swagger UI’s own files from the installed package', async () => {
    for (const [file, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
      ['favicon-32x32.png', /^image\/png/],
    ] as const) {
      const res = await t.http().get(`/docs/assets/${file}`).buffer(true).parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
      expect(Buffer.compare(res.body as Buffer, swaggerUiFile(file))).toBe(0);
    }
  });

  it('starts Swagger UI on the served OpenAPI document, which answers at the URL the page names', async () => {
    const page = await t.http().get('/docs');
    const openapiUrl = /data-openapi-url="([^"]*)"/.exec(page.text)![1];
    const init = await t.http().get('/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toMatch(/^text\/javascript/);
    expect(init.text).toContain('SwaggerUIBundle(');
    expect(init.text).toContain('dataset.openapiUrl');
    expect(init.text).toMatch(/validatorUrl:\s*null/);
    const doc = await t.http().get(openapiUrl);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1\./);
  });

  it('serves no other file of the package, nor anything outside it', async () => {
    for (const url of ['/docs/assets/index.html', '/docs/assets/swagger-initializer.js', '/docs/assets/package.json', '/docs/assets/..%2F..%2Fpackage.json', '/docs/assets/constructor']) {
      const res = await t.http().get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
  });
});
