// Makes sure the postgres tests have a server to start: run by `npm test` before vitest (like
// test/vscode/setup.mjs before the e2e). With AGENTM_TEST_PG_URL set, the tests use that server and
// nothing is needed. Otherwise PostgreSQL's programs (initdb, pg_ctl) must be installed: as root this
// installs Debian's `postgresql` package when it is absent (without the system cluster Debian would
// otherwise create and start: the tests make their own, see cluster.mjs); as anyone else it says how.
//
// usage: node test/postgres/setup.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { findPgBin } from './cluster.mjs';

const CREATECLUSTER = '/etc/postgresql-common/createcluster.conf';

export function ensurePostgres(env = process.env) {
  if (env.AGENTM_TEST_PG_URL) return 'AGENTM_TEST_PG_URL is set: the tests use that server';
  const bin = findPgBin(env);
  if (bin !== undefined) return `present (${bin})`;
  const command = 'apt-get update && apt-get install -y postgresql';
  if (process.getuid?.() !== 0)
    throw new Error(
      `the postgres tests need PostgreSQL's initdb and pg_ctl, which are not installed. Run as root: ${command} ` +
        '(or install PostgreSQL 13 or newer another way, or set AGENTM_TEST_PG_URL to a server the tests may create databases on)',
    );
  // Debian's postgresql-common creates and starts a system cluster on install unless told not to.
  if (!existsSync(CREATECLUSTER)) {
    mkdirSync('/etc/postgresql-common', { recursive: true });
    writeFileSync(
      CREATECLUSTER,
      '# written by agentm test/postgres/setup.mjs: the tests make their own clusters\ncreate_main_cluster = false\n',
    );
  }
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'postgresql'],
  ]) {
    const r = spawnSync('apt-get', args, { env: aptEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
      throw new Error(`apt-get ${args[0]} failed; run by hand to see why: ${command}\n${tail}`);
    }
  }
  const installed = findPgBin(env);
  if (installed === undefined)
    throw new Error(`apt-get installed postgresql but no initdb was found; check: ${command}`);
  return `installed postgresql (${installed})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.stdout.write(`postgres for the tests: ${ensurePostgres()}\n`);
  } catch (error) {
    process.stderr.write(`postgres for the tests: ${error.message}\n`);
    process.exit(1);
  }
}
