import { defineConfig } from 'vite';

/**
 * The dashboard's build: web/ → dist/web, served by the API server at / (src/dashboard-static.ts).
 * Hashed file names under assets/ let the server cache them for a year. Preact's JSX through
 * esbuild (no plugin needed); nothing is loaded from a CDN.
 */
export default defineConfig({
  root: __dirname,
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
