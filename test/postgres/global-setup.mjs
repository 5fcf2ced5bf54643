// vitest globalSetup: one PostgreSQL cluster for the whole run, started lazily by the first test file that
// asks for one (test/helpers/postgres.ts), so a run without postgres tests pays nothing; each test file
// then works in a database of its own. Teardown stops the cluster and removes its directory, whatever
// the tests did; a run killed before teardown leaves a stale cluster that the next start removes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopCluster } from './cluster.mjs';

/** @param {{ provide(key: string, value: unknown): void }} project */
export default function setup(project) {
  const runDir = mkdtempSync(join(tmpdir(), 'agentm-pgrun-'));
  project.provide('agentmPgRun', { dir: runDir, owner: process.pid });
  return () => {
    try {
      const started = JSON.parse(readFileSync(join(runDir, 'cluster.json'), 'utf8'));
      stopCluster(started.dir);
    } catch (error) {
      if (error.code !== 'ENOENT') process.stderr.write(`stopping the test cluster: ${error.message}\n`);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  };
}
