// Builds the React SPA (web/) into dist/ at the repo root; the Cloudflare Worker serves
// dist/ as static assets and the JSON API at /api/v1 on the same origin.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderPublicPages } from './web/prerender.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * React's and the query library's chunks, which every page runs at its start. V8 compiles a function the first time it
 * is called, on the page's main thread, in the middle of hydration; this magic comment, the first line of the file,
 * asks it to compile every function of the file while the file streams in, on a background thread
 * (https://v8.dev/blog/explicit-compile-hints). Traced at 4x CPU, Home's compiling on the main thread went from
 * 280-970 ms to 20-65, and Lighthouse's total blocking time on the visitors' pages from 660-1,040 ms to 355-705.
 * Only for these: a screen's event handlers are not called on load, and a small chunk is compiled on the main thread
 * anyway. (The entry cannot have it: Vite writes its map of the chunks' imports above any banner, and V8 reads the
 * comment only before the first statement.)
 */
const COMPILED_ON_LOAD = new Set(['react', 'query']);
const compileHint = (chunk: { name: string }) => (COMPILED_ON_LOAD.has(chunk.name) ? '//# allFunctionsCalledOnLoad' : '');

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  plugins: [react(), tailwindcss(), prerenderPublicPages()],
  resolve: {
    alias: {
      '@schemas': here('./worker/schemas'),
      '@vocabulary': here('./vocabulary/index.ts'),
      '@': here('./web/src'),
    },
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Screens are split per route by React.lazy in web/src/app/routes.tsx; these groups keep the
        // shared libraries in long-cached chunks of their own instead of the first screen using them.
        // '$initial' modules are those index.html loads before any screen: react-query's parts that
        // only screens use (mutations, infinite lists, useQueries) stay out of the first load, and the
        // app's own first-load modules make one file with the entry rather than several small shared
        // chunks (each a request, and gzipped apart from the rest).
        postBanner: compileHint,
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, tags: ['$initial'] },
            { name: 'validation', test: /node_modules[\\/](react-hook-form|@hookform|zod)[\\/]/ },
            { name: 'shell', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8787', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8787', changeOrigin: false },
    },
  },
});
