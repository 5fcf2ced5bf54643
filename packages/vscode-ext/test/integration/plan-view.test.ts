import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { appendObservations, effectiveStatus, makeObservation } from '@agentm/core/harness';
import { parsePlan, parseProgress } from '@agentm/core';
import {
  extension,
  findItem,
  inspect,
  leaveWorld,
  makeWorld,
  ok,
  removeTempDirs,
  useVault,
  showViews,
  tempDir,
  waitFor,
  waitForStatus,
  waitForView,
  type ItemSnapshot,
  type World,
} from './helpers';

const PLAN = `---
goal: ship the sidebar
---

# Sidebar

- [x] Parse the plan [id:: parse]
- [/] Draw the tree [id:: draw] [after:: parse] [agent:: 4242@elsewhere]
- [ ] Ship it [id:: ship] [after:: draw]
`;

const FEATURE = '- [ ] Try the feature [id:: try]\n';

const observations = [
  makeObservation({
    kind: 'transition',
    step: 'parse',
    attempt: 1,
    actor: 'agent',
    time: '2026-03-01T10:00:00.000Z',
    text: 'ready → done',
  }),
  makeObservation({
    kind: 'note',
    step: 'draw',
    attempt: 1,
    actor: 'agent',
    time: '2026-03-01T10:05:00.000Z',
    text: 'tree items come from the PLAN file',
  }),
  makeObservation({
    kind: 'tool_result',
    step: 'draw',
    attempt: 1,
    actor: 'agent',
    time: '2026-03-01T10:06:00.000Z',
    text: 'rendered three steps',
  }),
];

/** What each status looks like in the tree (the codicons users see). */
const ICON: Record<string, string> = {
  done: 'pass-filled',
  running: 'loading~spin',
  pending: 'circle-large-outline',
  ready: 'circle-large-outline',
  failed: 'error',
};

const plans = async () => (await inspect()).views.plan.items;
/** A plan's tree label is its goal: PLAN.md's is 'ship the sidebar'; PLAN-feature.md has none, so its name. */
const LABEL: Record<string, string> = { PLAN: 'ship the sidebar', feature: 'feature' };
const planItem = (items: readonly ItemSnapshot[], name: string) => items.find((i) => i.label === LABEL[name]);
/** The active plan's name, from the file its item opens (`PLAN.md` → PLAN, `PLAN-feature.md` → feature). */
const activePlan = (items: readonly ItemSnapshot[]) => {
  const file = items
    .find((i) => i.contextValue === 'agentm.plan.active')
    ?.resource?.split('/')
    .pop();
  return file === undefined ? undefined : file === 'PLAN.md' ? 'PLAN' : file.replace(/^PLAN-|\.md$/g, '');
};

suite('Plan view', () => {
  let world: World;
  suiteSetup(async () => {
    await extension().activate();
    world = await makeWorld();
    world.file(`desk/projects/${world.slug}/_harness/PLAN.md`, PLAN);
    world.file(`desk/projects/${world.slug}/_harness/progress.md`, appendObservations('', observations));
    world.file(`desk/projects/${world.slug}/_harness/PLAN-feature.md`, FEATURE);
    await ok('agentm.refresh');
    await showViews();
  });
  suiteTeardown(async () => {
    await leaveWorld();
    removeTempDirs();
  });

  test('the tree items match the PLAN file: titles, status icons, after-dependencies, progress entries', async () => {
    const view = await waitForView('plan', 'two plans', (v) => v.state === 'ready' && v.items.length === 2);
    assert.deepEqual(
      view.items.map((i) => i.label),
      ['ship the sidebar', 'feature'],
      "a plan shows its goal, not 'PLAN'; a plan with no goal nor heading shows its name",
    );
    const plan = planItem(view.items, 'PLAN')!;
    assert.equal(plan.collapsible, 'expanded', 'the active plan is expanded');
    assert.equal(planItem(view.items, 'feature')!.collapsible, 'collapsed');
    assert.match(plan.description ?? '', /^PLAN · active · open · 1\/3 done$/);
    assert.match(plan.tooltip ?? '', /plan PLAN: ship the sidebar/);

    const doc = parsePlan(PLAN);
    const steps = plan.children.filter((c) => c.contextValue?.startsWith('agentm.step.'));
    assert.deepEqual(
      steps.map((s) => s.label),
      doc.steps.map((s) => s.title),
    );
    doc.steps.forEach((step, i) => {
      const status = effectiveStatus(doc, step);
      assert.equal(steps[i]!.icon, ICON[status], `${step.id} is ${status}`);
      assert.equal(steps[i]!.contextValue, `agentm.step.${status}`);
      const after = step.after.length ? ` · after ${step.after.join(', ')}` : '';
      assert.equal(steps[i]!.description, `${status}${after}`);
      assert.equal(steps[i]!.command, 'vscode.open', 'a step opens the PLAN file');
    });
    assert.equal(steps[1]!.icon, 'loading~spin', 'the running step spins');

    const progress = plan.children.find((c) => c.label === 'Latest progress')!;
    const expected = parseProgress(readFileSync(join(world.harness, 'progress.md'), 'utf8')).reverse();
    assert.deepEqual(
      progress.children.map((e) => e.label),
      expected.map((o) => o.text),
    );
    assert.deepEqual(
      progress.children.map((e) => e.description),
      expected.map((o) => `${o.kind} · ${o.step} · ${o.time}`),
    );
  });

  test('without a goal, a plan shows its first heading; with neither, its name', async () => {
    world.file(`desk/projects/${world.slug}/_harness/PLAN-headed.md`, '# Release 1.2\n\n- [ ] Tag it [id:: tag]\n');
    const view = await waitForView(
      'plan',
      'the headed plan',
      (v) => v.items.some((i) => i.label === 'Release 1.2'),
      5_000,
    );
    assert.match(view.items.find((i) => i.label === 'Release 1.2')!.description ?? '', /^headed · open · 0\/1 done$/);
    rmSync(join(world.harness, 'PLAN-headed.md'));
    await ok('agentm.refresh'); // the labels are this test's subject, not the watchers
    await waitForView('plan', 'two plans again', (v) => v.items.length === 2, 5_000);
  });

  test('changing PLAN.md on disk (in a vault outside the workspace) updates the tree within a second', async () => {
    assert.ok(!world.vault.startsWith(world.repo), 'the vault must be outside the workspace');
    await waitForView('plan', 'the first plan', (v) => v.state === 'ready');
    for (const round of [1, 2, 3]) {
      const changed =
        PLAN.replace('- [/] Draw the tree', '- [x] Draw the tree') +
        `- [ ] Announce it, round ${round} [id:: announce] [after:: ship]\n`;
      const before = Date.now();
      writeFileSync(join(world.harness, 'PLAN.md'), changed);
      const view = await waitForView(
        'plan',
        `round ${round}`,
        (v) => findItem(v.items, `Announce it, round ${round}`) !== undefined,
        5_000,
      );
      const latency = view.loadedAt! - before;
      console.log(`[agentm-live-refresh] round ${round}: tree reloaded ${latency} ms after the write`);
      assert.ok(latency < 1000, `the tree took ${latency} ms to follow the change`);
      assert.equal(findItem(view.items, 'Draw the tree')!.icon, 'pass-filled');
    }
  });

  test('switch plan writes .harness/active-plan; writing the marker from outside switches the view', async () => {
    const marker = join(world.repo, '.harness', 'active-plan');
    assert.equal(await ok('agentm.switchPlan', 'feature'), 'feature');
    assert.equal(readFileSync(marker, 'utf8'), 'feature\n');
    await waitForView('plan', "'feature' active", (v) => activePlan(v.items) === 'feature');
    assert.equal(planItem(await plans(), 'feature')!.collapsible, 'expanded');

    await ok('agentm.switchPlan', 'PLAN');
    assert.equal(existsSync(marker), false, 'switching to PLAN.md removes the marker');
    await waitForView('plan', "'PLAN' active", (v) => activePlan(v.items) === 'PLAN');

    writeFileSync(marker, 'PLAN-feature.md\n'); // an agent (or crickets) binding the plan
    await waitForView(
      'plan',
      "'feature' active after an outside write",
      (v) => activePlan(v.items) === 'feature',
      5_000,
    );

    const refused = await ok('agentm.switchPlan', 'nope').then(
      () => undefined,
      (e: Error) => e.message,
    );
    assert.match(refused ?? '', /no plan at .*PLAN-nope\.md \(the plans here: PLAN, feature\)/);
  });

  test('a dangling marker is shown as trouble naming the fix, and clears when fixed', async () => {
    const marker = join(world.repo, '.harness', 'active-plan');
    writeFileSync(marker, 'gone\n');
    await waitForView('plan', 'the error state', (v) => v.state === 'error', 5_000);
    const status = await waitForStatus('trouble');
    assert.match(
      status.statusBar.tooltip,
      /binds plan "gone", but PLAN-gone\.md is missing or empty .* or delete the marker/,
    );
    rmSync(marker);
    await waitForView('plan', 'the plans again', (v) => v.state === 'ready' && activePlan(v.items) === 'PLAN', 5_000);
    await waitForStatus('idle');
  });

  test('the watchers follow the project and its vault: a vault no longer selected is no longer watched', async () => {
    const watching = (base: string) => async () =>
      (await inspect()).watched.some((w) => w.base === base && w.pattern === '**') ? true : undefined;
    assert.ok(await watching(world.vault)(), 'the vault outside the workspace is not watched');
    assert.ok(
      (await inspect()).watched.some((w) => w.base === world.repo && w.pattern.includes('.harness')),
      "the repo's .harness is not watched",
    );

    rmSync(join(world.repo, '.harness', 'project.json'));
    await waitForView('plan', 'the no-project state', (v) => v.state === 'noProject', 5_000);
    writeFileSync(join(world.repo, '.harness', 'project.json'), JSON.stringify({ vault_project: world.slug }));
    await waitForView('plan', 'the plans again after rebinding', (v) => v.state === 'ready', 5_000);

    const other = tempDir('agentm-itest-vault-');
    useVault(other); // the shared config names another vault: the watcher on the config file follows
    await waitFor('the new vault to be watched', watching(other));
    assert.equal(await watching(world.vault)(), undefined, 'the old vault is still watched');
    useVault(world.vault);
    await waitFor('the first vault to be watched again', watching(world.vault));
    await waitForView(
      'plan',
      'the plans of the first vault',
      (v) => v.state === 'ready' && v.items.length === 2,
      5_000,
    );
  });
});
