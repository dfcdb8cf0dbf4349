import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../../common/html';

/**
 * The model card and the API guide as web pages, at /docs/model-card and /docs/api (the guide's
 * index; its other pages at /docs/api-predictions and so on), rendered from the very files in
 * docs/ so the served pages never drift from the repository's. markdown-it
 * renders them with raw HTML off (an HTML tag in a doc shows as text), so no script can come
 * from a doc, and the policy below forbids any all the same.
 */

// __dirname is dist/src/doors/rest when built and src/doors/rest under ts-jest: try both depths.
const DOCS_DIR = [path.resolve(__dirname, '..', '..', '..', '..', 'docs'), path.resolve(__dirname, '..', '..', '..', 'docs')].find((dir) => existsSync(path.join(dir, 'api.md')));

/**
 * The pages, by path under /docs, and the file each is rendered from. The API guide's pages carry
 * `guide`, their name in the bar that links them to each other, in the order it shows them.
 */
export const DOC_PAGES: Record<string, { file: string; title: string; guide?: string }> = {
  'model-card': { file: 'model-card.md', title: 'Model card' },
  api: { file: 'api.md', title: 'API guide', guide: 'Index' },
  'api-predictions': { file: 'api-predictions.md', title: 'API guide: predictions', guide: 'Predictions' },
  'api-watchlists': { file: 'api-watchlists.md', title: 'API guide: watchlists, alerts and webhooks', guide: 'Watchlists, alerts and webhooks' },
  'api-events': { file: 'api-events.md', title: 'API guide: events', guide: 'Events' },
  'api-channels': { file: 'api-channels.md', title: 'API guide: email, CSV exports, calendar and Atom feeds', guide: 'Email, CSV, calendar and Atom' },
  'api-graphql': { file: 'api-graphql.md', title: 'API guide: GraphQL', guide: 'GraphQL' },
  'api-track-record': { file: 'api-track-record.md', title: 'API guide: track record', guide: 'Track record' },
};

/** Links between the docs that have a page here; a link to any other repository file names the file instead. */
const SERVED: Record<string, string> = {
  'model-card.md': '/docs/model-card',
  'api.md': '/docs/api',
  'api-predictions.md': '/docs/api-predictions',
  'api-watchlists.md': '/docs/api-watchlists',
  'api-events.md': '/docs/api-events',
  'api-channels.md': '/docs/api-channels',
  'api-graphql.md': '/docs/api-graphql',
  'api-track-record.md': '/docs/api-track-record',
};

const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";


/** GitHub's heading anchors (lower case, punctuation dropped, spaces as hyphens), so README's links like api.md#events land here too. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

function renderer(): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const base = slug(state.tokens[i + 1].children?.map((c) => c.content).join('') ?? '');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      token.attrSet('id', n ? `${base}-${n}` : base);
    });
  });
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  const defaultLinkClose = md.renderer.rules.link_close ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  // which open links were turned into spans, so each close matches its open (render is synchronous)
  const unserved: boolean[] = [];
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const href = String(tokens[i].attrGet('href') ?? '');
    const [file, anchor] = href.split('#');
    const external = /^[a-z]+:/i.test(href) || href.startsWith('#');
    unserved.push(false);
    if (!external) {
      const served = SERVED[path.posix.basename(file)];
      if (served && !file.includes('..')) tokens[i].attrSet('href', anchor ? `${served}#${anchor}` : served);
      else {
        unserved[unserved.length - 1] = true;
        return `<span class="repo-file" title="${escapeHtml(path.posix.normalize(path.posix.join('docs', file)))} in the repository">`;
      }
    }
    return defaultLinkOpen(tokens, i, options, env, self);
  };
  md.renderer.rules.link_close = (tokens, i, options, env, self) => (unserved.pop() ? '</span>' : defaultLinkClose(tokens, i, options, env, self));
  return md;
}

const STYLE = `body { font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a2e; max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: #1d4ed8; } nav { margin-bottom: 1rem; } nav a { margin-right: 1rem; } nav a[aria-current] { font-weight: bold; color: inherit; }
table { border-collapse: collapse; display: block; overflow-x: auto; } th, td { border: 1px solid #d9d9e3; padding: 0.25rem 0.5rem; text-align: left; }
pre { background: #f4f5fa; padding: 0.75rem; overflow-x: auto; } code { font-size: 0.9em; } img { max-width: 100%; }
.repo-file { border-bottom: 1px dotted #5b5b6e; }
`;

/** The bar of the API guide's pages, on each of them, the page shown marked as current. */
function guideNav(current: string): string {
  const links = Object.entries(DOC_PAGES)
    .filter(([, { guide }]) => guide)
    .map(([name, { guide }]) => `<a href="/docs/${name}"${name === current ? ' aria-current="page"' : ''}>${escapeHtml(guide!)}</a>`);
  return `<nav aria-label="API guide">${links.join('')}</nav>\n`;
}

function page(name: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Bill Progress</title>
<link rel="stylesheet" href="/docs/pages.css">
</head>
<body>
<nav aria-label="Documentation"><a href="/">Dashboard</a><a href="/docs/api">API guide</a><a href="/docs/model-card">Model card</a><a href="/docs">REST reference</a></nav>
${DOC_PAGES[name].guide ? guideNav(name) : ''}<main>
${body}</main>
</body>
</html>
`;
}

/** Rendered once, at the first request for each: the files change only with a new release. */
export function docPagesRouter(): Router {
  const router = express.Router();
  const md = renderer();
  const rendered = new Map<string, string>();
  const headers = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY' };
  router.get('/pages.css', (_req, res) => void res.type('text/css').send(STYLE));
  for (const [name, { file, title }] of Object.entries(DOC_PAGES)) {
    router.get(`/${name}`, (_req, res) => {
      if (!DOCS_DIR) return void res.status(404).type('text/plain').send(`${file} is not in this installation (no docs/ folder beside it)`);
      if (!rendered.has(name)) rendered.set(name, page(name, title, md.render(readFileSync(path.join(DOCS_DIR, file), 'utf8'))));
      res.set(headers).type('html').send(rendered.get(name));
    });
  }
  // the model card's reliability diagrams, which it shows as model-card/NAME.svg
  router.get('/model-card/:file', (req, res, next) => {
    const file = req.params.file;
    if (!DOCS_DIR || !/^[a-z0-9-]+\.svg$/.test(file) || !existsSync(path.join(DOCS_DIR, 'model-card', file))) return next();
    res.set(headers).sendFile(file, { root: path.join(DOCS_DIR, 'model-card'), maxAge: '1h', headers: { 'Content-Type': 'image/svg+xml' } });
  });
  return router;
}
