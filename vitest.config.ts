import { defineConfig } from 'vitest/config';

// One run covers every package: node tests for contract/server/bench, a DOM for the web app.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'providers',
          root: 'packages/providers',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          // Limits, not waits: tests wait for states; a busy machine (load 30 on 2 cores) needs room.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits for a state up to this long (its default of 1 s ran out at load 4 on 2 cores).
          expect: { poll: { timeout: 30_000 } },
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
