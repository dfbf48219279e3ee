import { defineConfig } from 'vitest/config';

// npm run test:deploy: the production build run as operators run it — the production tree
// (deploy/test/production-tree.test.ts) and compose.yaml's topology as processes behind nginx
// (deploy/test/topology.test.ts). They need `npm run build`, nginx, PostgreSQL and Redis, so they are
// not part of `npm test`.
export default defineConfig({
  test: {
    name: 'deploy',
    root: '.',
    include: ['deploy/test/**/*.test.ts'],
    environment: 'node',
    // Each file starts several servers (and the production tree runs npm ci): one at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
