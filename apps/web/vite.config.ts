import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstViewCatalog } from './catalog-plugin.ts';
import { delivery } from './delivery-plugin.ts';
import { firstViewChunk } from './first-view-chunks.ts';

// In development the API runs on PORT (default 8080); Vite proxies everything that is not the app.
const api = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const apiPrefixes = [
  '/api',
  '/ping.txt',
  '/auth',
  '/users',
  '/sessions',
  '/meta',
  '/metrics',
  '/scrape',
  '/metadata',
  '/customers',
  '/shkeeper',
];

export default defineConfig({
  plugins: [react(), tailwindcss(), firstViewCatalog(), delivery()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: [firstViewChunk()] } },
    },
  },
  server: {
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
