import { defineConfig } from 'vite';

/**
 * The dashboard's build: web/ → dist/dashboard, served by the API server at / (src/doors/http/dashboard-static.ts).
 * Not dist/web: the server's own build compiles web/src/operations.ts there (the documents a
 * session cookie may run, src/gateway/website-documents.ts), and this build empties its folder.
 * Hashed file names under assets/ let the server cache them for a year. Preact's JSX through
 * esbuild (no plugin needed); nothing is loaded from a CDN.
 */
export default defineConfig({
  root: __dirname,
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
