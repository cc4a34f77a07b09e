import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests use the client SDK from source, never a stale build of it.
  resolve: { alias: { '@parley/client': new URL('./packages/client/src/index.ts', import.meta.url).pathname } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file builds its own apps and tenants; no shared mutable state between files.
    isolate: true,
  },
});
