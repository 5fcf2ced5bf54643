import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresBackend } from '@agentm/core/backends';
import {
  extension,
  findItem,
  ok,
  privateConfigPrefix,
  removeTempDirs,
  setVaultPath,
  showViews,
  waitForView,
  workspaceFolder,
} from './helpers';

// A team's store in VS Code: the window's workspace selects the postgres backend from agentm's config,
// the Plan view reads the plan from the database, and another machine's change reaches the view through
// LISTEN/NOTIFY (there is no file to watch). The server comes from test/vscode/run.mjs (AGENTM_E2E_PG_URL,
// a throw-away cluster, or AGENTM_TEST_PG_URL's server).

const PLAN = `---
goal: ship from the database
---

- [x] Design it [id:: design]
- [ ] Build it [id:: build] [after:: design]
`;

suite('A postgres store', function () {
  const admin = process.env['AGENTM_E2E_PG_URL'];
  let store: PostgresBackend | undefined;
  let prefix: string | undefined;
  const saved = { prefix: process.env['AGENTM_INSTALL_PREFIX'], password: process.env['PGPASSWORD'] };
  const slug = `itest-pg-${process.pid}`;

  suiteSetup(async function () {
    if (!admin) {
      console.log('skipped: run.mjs gave no AGENTM_E2E_PG_URL (no PostgreSQL for the e2e)');
      this.skip();
    }
    await extension().activate();
    const url = new URL(admin!);
    const password = decodeURIComponent(url.password);
    url.password = '';
    const schema = `itest_${process.pid}`;
    store = new PostgresBackend({ url: url.toString(), schema, env: { PGPASSWORD: password } });
    await store.write(store.resolve('desk', 'projects', slug, '_harness', 'PLAN.md'), PLAN);
    // The window's config: postgres, its URL without the password (which comes from PGPASSWORD).
    const configFile = privateConfigPrefix();
    prefix = join(configFile, '..');
    writeFileSync(
      configFile,
      JSON.stringify({ 'storage.backend': 'postgres', 'postgres.url': url.toString(), 'postgres.schema': schema }),
    );
    process.env['PGPASSWORD'] = password;
    const repo = workspaceFolder();
    rmSync(join(repo, '.harness'), { recursive: true, force: true });
    mkdirSync(join(repo, '.harness'), { recursive: true });
    writeFileSync(join(repo, '.harness', 'project.json'), `${JSON.stringify({ vault_project: slug })}\n`);
    await setVaultPath(undefined);
    await ok('agentm.refresh');
    await showViews();
  });

  suiteTeardown(async () => {
    if (!store) return;
    await store.close();
    rmSync(join(workspaceFolder(), '.harness'), { recursive: true, force: true });
    if (saved.prefix === undefined) delete process.env['AGENTM_INSTALL_PREFIX'];
    else process.env['AGENTM_INSTALL_PREFIX'] = saved.prefix;
    if (saved.password === undefined) delete process.env['PGPASSWORD'];
    else process.env['PGPASSWORD'] = saved.password;
    if (prefix) rmSync(prefix, { recursive: true, force: true });
    await ok('agentm.refresh');
    removeTempDirs();
  });

  test("the Plan view shows the database's plan and follows another machine's change (LISTEN/NOTIFY)", async () => {
    const view = await waitForView('plan', 'the plan from the database', (v) =>
      v.items.some((i) => i.label === 'ship from the database'),
    );
    const plan = view.items.find((i) => i.label === 'ship from the database')!;
    assert.match(plan.description ?? '', /^PLAN · active · open · 1\/2 done$/);
    // Another machine marks the step done and adds one: no file changes here, only the database notifies.
    const changed = PLAN.replace('- [ ] Build it', '- [x] Build it') + '- [ ] Announce it [id:: announce]\n';
    await store!.write(store!.resolve('desk', 'projects', slug, '_harness', 'PLAN.md'), changed);
    const after = await waitForView(
      'plan',
      'the change from the database',
      (v) => findItem(v.items, 'Announce it') !== undefined,
      10_000,
    );
    assert.match(
      after.items.find((i) => i.label === 'ship from the database')!.description ?? '',
      /^PLAN · active · open · 2\/3 done$/,
    );
  });
});
