import react from '@vitejs/plugin-react';
import { catalogs } from './catalogs-plugin.ts';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react(), catalogs()],
  test: {
    name: 'web',
    root: 'apps/web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    // A limit, not a wait (see src/test/setup.ts): room for a busy machine.
    testTimeout: 30_000,
  },
});
