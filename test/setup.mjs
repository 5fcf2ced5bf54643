// Installs what the vitest suite's tests need from the system, before vitest runs (`npm test` runs it):
//   zsh and fish    the shell-completion tests run real shells (bash is always there)
//   a C compiler    the fault-injection shim (test/fixtures/fault-shim.c) is compiled by its tests
//   postgresql      the postgres tests start a throw-away cluster (test/postgres/setup.mjs; nothing
//                   with AGENTM_TEST_PG_URL set); without it they fail, naming the fix
// Idempotent: tools already on PATH (however installed) are left alone. It never fails the suite: not
// root (a developer's machine), no apt-get (not Debian), or apt-get failing (no network) prints why and
// the command that would install them, and the tests that need a missing tool are skipped, each saying why.
import { pathToFileURL } from 'node:url';
import { aptInstall, hasTool, SetupError } from './apt.mjs';
import { ensurePostgres } from './postgres/setup.mjs';

export function ensureSuitePackages() {
  const wanted = ['zsh', 'fish'].filter((shell) => !hasTool(shell));
  if (!hasTool('cc')) wanted.push('build-essential');
  return aptInstall(wanted, 'the shell-completion and fault-injection tests');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(`test setup: ${ensureSuitePackages()}`);
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.warn(`test setup: ${error.message} (those tests are skipped until then)`);
  }
  try {
    console.log(`test setup, postgres: ${ensurePostgres()}`);
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.warn(`test setup, postgres: ${error.message}`);
  }
}
