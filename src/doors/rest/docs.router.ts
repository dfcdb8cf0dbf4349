import path from 'node:path';
import express, { type Router } from 'express';
import { docPagesRouter } from './docs-pages';

/**
 * The REST reference at /docs: Swagger UI rendering the served OpenAPI document. Its files come
 * from the swagger-ui-dist package and are served by this process, so the page works offline;
 * the Content-Security-Policy holds the page to this origin, so a change that loads anything from
 * elsewhere shows up as a blocked request rather than a page that breaks only without internet.
 */

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files of the package the page needs; nothing else of node_modules is reachable. */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

// Swagger UI sets inline styles and uses data: URIs for its icons; scripts and fetches stay same-origin.
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(baseUrl: string, openapiUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bill Progress API reference</title>
<link rel="icon" type="image/png" href="${escapeAttribute(`${baseUrl}/assets/favicon-32x32.png`)}">
<link rel="stylesheet" href="${escapeAttribute(`${baseUrl}/assets/swagger-ui.css`)}">
</head>
<body>
<div id="swagger-ui" data-openapi-url="${escapeAttribute(openapiUrl)}"></div>
<script src="${escapeAttribute(`${baseUrl}/assets/swagger-ui-bundle.js`)}"></script>
<script src="${escapeAttribute(`${baseUrl}/init.js`)}"></script>
</body>
</html>
`;
}

// A file rather than an inline script, so the policy can forbid inline scripts.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.openapiUrl,
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  // the default sends the document to an online validator for a badge
  validatorUrl: null,
});
`;

export function docsRouter(options: { openapiUrl: string }): Router {
  const router = express.Router();
  router.use(docPagesRouter());
  router.get('/', (req, res) => {
    res.set({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY' }).type('html').send(page(req.baseUrl, options.openapiUrl));
  });
  router.get('/init.js', (_req, res) => {
    res.type('text/javascript').send(INIT_SCRIPT);
  });
  router.get('/assets/:file', (req, res, next) => {
    const contentType = ASSETS.get(req.params.file);
    if (!contentType) return next();
    res.sendFile(req.params.file, { root: SWAGGER_UI_DIR, maxAge: '1d', headers: { 'Content-Type': contentType } });
  });
  return router;
}
