import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { DOC_PAGES, slug } from '../../src/doors/rest/docs-pages';

/**
 * Every link between the README and the docs lands: its file exists and, when it names a heading,
 * the heading is there (with GitHub's anchors, which the served pages give their headings too). A
 * section moved to another document, or renamed, leaves no reader at a dead end.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const md = new MarkdownIt({ html: false });

function parse(file: string): { anchors: Set<string>; links: string[] } {
  const tokens = md.parse(readFileSync(path.join(ROOT, file), 'utf8'), {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: string[] = [];
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') {
      const base = slug(tokens[i + 1].children?.map((c) => c.content).join('') ?? '');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const child of token.children ?? []) if (child.type === 'link_open') links.push(String(child.attrGet('href')));
  });
  return { anchors, links };
}

const parsed = new Map(DOCUMENTS.map((file) => [file, parse(file)]));

it.each(DOCUMENTS)('%s links only to documents and headings that exist', (file) => {
  const dead = parsed
    .get(file)!
    // other sites, and the service's own pages (/docs/model-card), are not files of the repository
    .links.filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('/'))
    .filter((href) => {
      const [target, anchor] = href.split('#');
      const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
      if (!existsSync(path.join(ROOT, resolved))) return true;
      if (!anchor || !resolved.endsWith('.md')) return false;
      return !(parsed.get(resolved) ?? parse(resolved)).anchors.has(anchor);
    });
  expect(dead).toEqual([]);
});

it('serves every page of the API guide at /docs, so its links between pages land on the site too', () => {
  const served = Object.values(DOC_PAGES).map((page) => page.file);
  expect(DOCUMENTS.filter((file) => /^docs\/api(-[a-z]+)?\.md$/.test(file)).map((file) => file.slice('docs/'.length)).filter((file) => !served.includes(file))).toEqual([]);
});
