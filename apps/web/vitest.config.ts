import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { firstViewCatalog } from './catalog-plugin.ts';

export default defineProject({
  plugins: [react(), firstViewCatalog()],
  test: {
    name: 'web',
    root: 'apps/web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
  },
});
