import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A comment that cites a document as the evidence for a choice ("… (docs/x.md)") must cite one
 * that exists: a reader sent to a missing file cannot check the claim.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const CITATION = /\bdocs\/[\w./-]+\.(?:md|json|svg|png)\b/g;

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return files(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

it('every document cited in src/ and bench/ exists', () => {
  const missing = ['src', 'bench'].flatMap(files).flatMap((file) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(CITATION)].map((m) => `${file}: ${m[0]}`).filter((hit) => !existsSync(path.join(ROOT, hit.split(': ')[1]))));
  expect(missing).toEqual([]);
});
