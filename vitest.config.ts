import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Every store's change log and lock live under the cache dir: a test that builds a store without naming
// a lock root writes there, so the run gets a cache dir of its own (removed by test/global-setup.ts).
const cacheHome = join(tmpdir(), `agentm-vitest-cache-${process.pid}`);
process.env['XDG_CACHE_HOME'] = cacheHome;

export default defineConfig({
  // Obsidian plugin tests import `obsidian` and get the one shared fake of it (real directory, happy-dom).
  resolve: {
    alias: [
      {
        find: /^obsidian$/,
        replacement: fileURLToPath(new URL('./packages/obsidian-plugin/test/fake-obsidian/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/vscode/**', 'packages/vscode-ext/test/integration/**'],
    // Unread pages of a loaded index snapshot hold 0xA5 bytes, not zeros: a read that forgot to page its
    // bytes in (memory/indexing/snapshot-pages.ts) then gives garbage a test sees, here and in child processes.
    env: { XDG_CACHE_HOME: cacheHome, AGENTM_INDEX_UNREAD_FILL: '165' },
    // The run's cache dir removed at the end; one PostgreSQL cluster per run, started by the first test file
    // that asks (test/helpers/postgres.ts).
    globalSetup: ['test/global-setup.ts', 'test/postgres/global-setup.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Multi-process tests spawn many children; two files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
  },
});
