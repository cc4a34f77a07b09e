import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The dashboard is a static build served by the API server itself (src/web/dashboard-routes.ts).
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npx vite --config dashboard/vite.config.ts` during development: the API runs on 8787.
    proxy: { '/api': 'http://127.0.0.1:8787' },
  },
});
