import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const API_TARGET = 'http://127.0.0.1:8080';

// The 'ris-source' condition makes workspace packages (@ris/domain) resolve to their TypeScript source,
// so the web app never depends on a stale build of the domain package.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    conditions: ['ris-source', 'module', 'browser', 'development|production'],
    // zod with its Content-Security-Policy setting (src/zod-csp.ts), wherever it is imported.
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/zod-csp.ts', import.meta.url)) }],
  },
  server: {
    proxy: {
      // ws: the speech socket of dictation (/api/v1/speech).
      '/api': { target: API_TARGET, ws: true, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
      // Hocuspocus (collaborative report editing) — dev server only; the built app is same-origin.
      '/collab': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      // ws: the speech socket of dictation (/api/v1/speech).
      '/api': { target: API_TARGET, ws: true, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
      '/collab': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The largest chunk is the lazily loaded report editor (TipTap + ProseMirror + Yjs, ~185 kB gzip).
    chunkSizeWarningLimit: 650,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            // The report editor's libraries load only with the screens that use them.
            {
              name: 'editor',
              test: /node_modules[\\/](@tiptap|prosemirror-[a-z-]+|yjs|y-prosemirror|y-protocols|lib0|@hocuspocus|linkifyjs|orderedmap|rope-sequence|w3c-keyname)[\\/]/,
              priority: 15,
            },
            // Loaded after a screen has shown (the toast region, the realtime connection), under names
            // the page-weight bench can hold back to prove no screen needs them to show.
            { name: 'sonner', test: /node_modules[\\/]sonner[\\/]/, priority: 10 },
            {
              name: 'socket-io',
              test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/,
              priority: 10,
            },
            // No catch-all vendor group: it would put every library of the signed-in screens into
            // one chunk that the sign-in page must download too. The rest is split by the routes.
          ],
        },
      },
    },
  },
});
