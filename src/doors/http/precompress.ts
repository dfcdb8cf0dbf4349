import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text files worth compressing (images and fonts are compressed already). */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;

/** Content-Encoding → the suffix of the file holding that encoding, in the order preferred. */
export const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
export type Encoding = (typeof ENCODINGS)[number][0];

/** Each encoding at its smallest: compressed once at build time, so the time does not matter. */
const COMPRESS: Record<Encoding, (content: Buffer) => Buffer> = {
  br: (content) => brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
  gzip: (content) => gzipSync(content, { level: 9 }),
};

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/**
 * Writes FILE.br (brotli, quality 11) and FILE.gz (gzip, level 9) beside every compressible file
 * of a built folder, once at build time, so the server sends them without compressing per request.
 * A variant that would not be smaller is not written. Answers the bytes before and after.
 */
export function precompressDirectory(dir: string): { files: number; bytes: number; br: number; gzip: number } {
  const total = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    total.files++;
    total.bytes += content.length;
    for (const [name, suffix] of ENCODINGS) {
      const compressed = COMPRESS[name](content);
      const kept = compressed.length < content.length;
      if (kept) writeFileSync(file + suffix, compressed);
      total[name] += kept ? compressed.length : content.length;
    }
  }
  return total;
}

/**
 * The encoding to send given a request's Accept-Encoding, among those on offer: brotli before
 * gzip; an encoding with q=0 is refused; null: send the file as it is.
 */
export function chooseEncoding(acceptEncoding: string | undefined, offered: ReadonlySet<Encoding>): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  for (const [encoding] of ENCODINGS) {
    const q = accepted.get(encoding) ?? accepted.get('*') ?? 0;
    if (q > 0 && offered.has(encoding)) return encoding;
  }
  return null;
}

/** The precompressed variants found beside the files of a folder: URL path (/assets/x.js) → encodings. */
export function findPrecompressed(dir: string): Map<string, Set<Encoding>> {
  const found = new Map<string, Set<Encoding>>();
  for (const file of filesUnder(dir)) {
    for (const [encoding, suffix] of ENCODINGS) {
      if (!file.endsWith(suffix)) continue;
      const original = file.slice(0, -suffix.length);
      try {
        if (!statSync(original).isFile()) continue;
      } catch {
        continue;
      }
      const urlPath = '/' + path.relative(dir, original).split(path.sep).join('/');
      if (!found.has(urlPath)) found.set(urlPath, new Set());
      found.get(urlPath)!.add(encoding);
    }
  }
  return found;
}
