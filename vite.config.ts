// Builds the React SPA (web/) into dist/ at the repo root; the Cloudflare Worker serves
// dist/ as static assets and the JSON API at /api/v1 on the same origin.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderPublicPages } from './web/prerender.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
