import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProgress } from '@agentm/core';
import type { TestingApi } from '../../src/extension';
import {
  extension,
  findItem,
  inspect,
  leaveWorld,
  makeWorld,
  ok,
  removeTempDirs,
  run,
  showViews,
  waitFor,
  waitForView,
  type World,
} from './helpers';

// Steps while a plan runs and by hand (issue 21): live command output, a step `agentm run` holds, and
// the sidebar's "Update step…" through the workspace's transitions.
suite("plan steps: live output, a run's claims, updates by hand", () => {
  let world: World;
  let testing: TestingApi;
  suiteSetup(async () => {
    testing = (await extension().activate()) as TestingApi;
    testing.setCommandApprovalAsker(async () => true); // the person approves in the dialog
    world = await makeWorld();
    await showViews();
  });
  suiteTeardown(async () => {
    await leaveWorld();
    removeTempDirs();
  });

  test("a command's output streams into the AgentM run channel while the step runs", async () => {
    world.file(
      `desk/projects/${world.slug}/_harness/PLAN-live.md`,
      "- [ ] Say it [id:: say] [cmd:: sh -c 'echo first-line; sleep 2; echo last-line']\n",
    );
    await waitForView('plan', 'the live plan', (v) => findItem(v.items, 'Say it') !== undefined, 5_000);
    const running = run<string>('agentm.runPlan', 'live');
    // The output's own line: the command echoed above it holds the same words.
    const during = await waitFor('the first line while the step still runs', async () => {
      const state = await inspect();
      return /^first-line$/m.test(state.runLog) ? state : undefined;
    });
    assert.ok(during.running.includes('live'), 'the output came only after the run');
    assert.doesNotMatch(during.runLog, /^last-line$/m, 'the output came only after the step');
    assert.match(
      during.runLog,
      /── run 'live' · .*\n▶ say: Say it\n\$ sh -c 'echo first-line; sleep 2; echo last-line'\nfirst-line\n/,
    );
    const done = await running;
    assert.ok(done.ok && done.value.startsWith('done'), JSON.stringify(done));
    assert.match((await inspect()).runLog, /last-line\n✓ say done in \d+\.\d s\n── done\n$/);
  });

  test('a step an agentm run has claimed cannot be taken over from the sidebar', async () => {
    const planFile = world.file(
      `desk/projects/${world.slug}/_harness/PLAN-held.md`,
      '- [ ] Hold on [id:: hold] [cmd:: sleep 30]\n',
    );
    await waitForView('plan', 'the held plan', (v) => findItem(v.items, 'Hold on') !== undefined, 5_000);
    // A real `agentm run` (the CLI bundled with the extension) in the repository, on the same store.
    const cli = spawn(
      process.execPath,
      [join(extension().extensionPath, 'dist', 'agentm.mjs'), 'run', '--plan', 'held', '--yes', '--quiet'],
      { cwd: world.repo, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    try {
      const claimant = await waitFor(
        'agentm run to claim the step',
        async () => /^- \[\/\] Hold on .*\[agent:: (\d+@\S+)\]/m.exec(readFileSync(planFile, 'utf8'))?.[1],
        30_000,
      );
      const held = readFileSync(planFile, 'utf8');
      for (const action of ['done', 'failed', 'start']) {
        const refused = await run('agentm.updateStep', 'held', 'hold', action, 'taking it over');
        assert.equal(refused.ok, false, `${action} took over a step agentm run holds`);
        assert.match(
          refused.ok ? '' : refused.message,
          action === 'start' ? /it is already running/ : new RegExp(`agentm run \\(${claimant}\\) is running it`),
        );
      }
      assert.equal(readFileSync(planFile, 'utf8'), held, 'the plan changed');
    } finally {
      cli.kill('SIGTERM');
      await exited;
    }
  });

  test('update step moves a step from the sidebar, as the person, by the state machine', async () => {
    const planFile = world.file(
      `desk/projects/${world.slug}/_harness/PLAN-by-hand.md`,
      '- [ ] Review it [id:: review]\n',
    );
    await waitForView('plan', 'the by-hand plan', (v) => findItem(v.items, 'Review it') !== undefined, 5_000);
    assert.equal(await ok<string>('agentm.updateStep', 'by-hand', 'review', 'start'), 'running');
    assert.match(readFileSync(planFile, 'utf8'), /^- \[\/\] Review it \[id:: review\] \[agent:: .* \(VS Code\)\]/);
    assert.equal(await ok<string>('agentm.updateStep', 'by-hand', 'review', 'done', 'looks good'), 'done');
    const again = await run('agentm.updateStep', 'by-hand', 'review', 'done');
    assert.match(again.ok ? '' : again.message, /it is already done/);
    const log = parseProgress(readFileSync(join(world.harness, 'progress-by-hand.md'), 'utf8'));
    assert.deepEqual(
      log.map((o) => [o.kind, o.text]),
      [
        ['transition', 'ready → running'],
        ['transition', 'running → done'],
        ['note', 'looks good'],
        ['transition', 'plan open → done: every step is done'],
      ],
    );
  });
});
