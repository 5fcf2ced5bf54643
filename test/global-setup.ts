import { rm } from 'node:fs/promises';

/** Removes the test run's cache dir (see vitest.config.ts) once every test file has run. */
export default function setup(): () => Promise<void> {
  const cacheHome = process.env['XDG_CACHE_HOME'];
  return async () => {
    if (cacheHome?.includes('agentm-vitest-cache-')) await rm(cacheHome, { recursive: true, force: true });
  };
}
