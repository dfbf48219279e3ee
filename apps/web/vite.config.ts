import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { catalogs } from './catalogs-plugin.ts';
import { defineConfig } from 'vite';
import { accountPaths } from '../../packages/contract/src/account-paths.ts';
import { apiPaths } from '../../packages/contract/src/api-paths.ts';
import { customerPaths } from '../../packages/contract/src/customer-paths.ts';
import * as routeTables from '../../packages/contract/src/routes.ts';
import { sourcePaths } from '../../packages/contract/src/source-paths.ts';
import { delivery } from './delivery-plugin.ts';
import { firstViewChunk } from './first-view-chunks.ts';

// In development the API runs on PORT (default 8080); Vite proxies everything that is not the app: the
// first path segment of every route the contract names (route tables and path constants), so a new
// endpoint is proxied without a hand-kept list.
const api = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const contractPaths = [
  ...Object.values(routeTables).flatMap((table) => Object.values(table).map((route) => route.path)),
  ...Object.values(accountPaths),
  ...Object.values(apiPaths),
  ...Object.values(customerPaths),
  ...Object.values(sourcePaths),
];
const apiPrefixes = [...new Set(contractPaths.map((p) => `/${p.split('/')[1]}`))];
// /promos is a page of the app too: the server gives a browser navigation the app there
// (apps/server/src/modules/membership/membership.routes.ts), so the proxy leaves navigations to Vite.
const pagesToo = new Set<string>([customerPaths.promos]);
const isNavigation = (accept: string | undefined) => /text\/html/.test(accept ?? '');

export default defineConfig({
  plugins: [react(), tailwindcss(), catalogs(), delivery()],
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
    proxy: Object.fromEntries(
      apiPrefixes.map((p) => [
        p,
        {
          target: api,
          changeOrigin: false,
          ...(pagesToo.has(p)
            ? {
                bypass: (req: { url?: string; headers: { accept?: string } }) =>
                  pagesToo.has(req.url?.split('?')[0] ?? '') && isNavigation(req.headers.accept)
                    ? '/index.html'
                    : undefined,
              }
            : {}),
        },
      ]),
    ),
  },
});
