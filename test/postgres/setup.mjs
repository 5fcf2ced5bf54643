// Makes sure the postgres tests have a server to start: run by test/setup.mjs before vitest and by
// test/vscode/run.mjs before the e2e. With AGENTM_TEST_PG_URL set, the tests use that server and
// nothing is needed. Otherwise PostgreSQL's programs (initdb, pg_ctl) must be installed: as root this
// installs Debian's `postgresql` package when it is absent (without the system cluster Debian would
// otherwise create and start: the tests make their own, see cluster.mjs); as anyone else it says how.
//
// usage: node test/postgres/setup.mjs
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { aptInstall, SetupError } from '../apt.mjs';
import { findPgBin } from './cluster.mjs';

const CREATECLUSTER = '/etc/postgresql-common/createcluster.conf';

export function ensurePostgres(env = process.env) {
  if (env.AGENTM_TEST_PG_URL) return 'AGENTM_TEST_PG_URL is set: the tests use that server';
  const bin = findPgBin(env);
  if (bin !== undefined) return `present (${bin})`;
  const fix =
    'or install PostgreSQL 13 or newer another way, or set AGENTM_TEST_PG_URL to a server the tests may create databases on';
  if (process.getuid?.() === 0) {
    // Debian's postgresql-common creates and starts a system cluster on install unless told not to.
    if (!existsSync(CREATECLUSTER)) {
      mkdirSync('/etc/postgresql-common', { recursive: true });
      writeFileSync(
        CREATECLUSTER,
        '# written by agentm test/postgres/setup.mjs: the tests make their own clusters\ncreate_main_cluster = false\n',
      );
    }
  }
  try {
    aptInstall(['postgresql'], "the postgres tests (PostgreSQL's initdb and pg_ctl, not installed)");
  } catch (error) {
    throw error instanceof SetupError ? new SetupError(`${error.message} (${fix})`) : error;
  }
  const installed = findPgBin(env);
  if (installed === undefined)
    throw new Error('apt-get installed postgresql but no initdb was found; check: apt-get install -y postgresql');
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
