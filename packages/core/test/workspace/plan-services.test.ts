import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from '../../../../test/helpers/agentm-world.js';
import { InvalidTransitionError, PlanNotFoundError } from '../../src/harness/errors.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { NoPlanHomeError } from '../../src/workspace/plan-home.js';
import { openWorkspace } from '../../src/workspace/workspace.js';

function hostOf(w: AgentmWorld) {
  return { env: { HOME: w.home, XDG_CACHE_HOME: join(w.home, 'cache') }, home: w.home };
}

/** The world's vault selected, with three plans, an archive and a sync conflict copy in its `_harness/`. */
async function plansWorld(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await writeFile(join(w.harness, 'PLAN.md'), '---\ngoal: Ship the release\n---\n\n- [ ] tag it [id:: tag]\n');
  await writeFile(join(w.harness, 'PLAN-build.md'), '# Make the build reproducible\n\n- [x] pin node [id:: pin]\n');
  await writeFile(join(w.harness, 'PLAN-docs.md'), '- [ ] write it [id:: write]\n');
  await writeFile(join(w.harness, 'PLAN-build (conflicted copy 2026-01-02).md'), '- [ ] other [id:: other]\n');
  await writeFile(join(w.harness, 'PLAN.archive.2025-12-01.md'), '- [x] old [id:: old]\n');
  return w;
}

const marker = (w: AgentmWorld) => join(w.repo, '.harness', 'active-plan');

describe("the workspace's plan listing (what every front end renders)", () => {
  it('lists PLAN.md then the named plans, titled by goal or heading, the active one marked; never a conflict copy', async () => {
    const w = await plansWorld();
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const listing = await ws.listPlans();
    expect(listing.project).toBe('proj');
    expect(listing.stateDir).toBe(w.harness);
    expect(listing.repository).toBe(w.repo);
    expect(listing.plans.map((p) => [p.name, p.title, p.active])).toEqual([
      ['PLAN', 'Ship the release', true],
      ['build', 'Make the build reproducible', false],
      ['docs', 'docs', false],
    ]);
    expect(listing.plans[1]).toMatchObject({
      terminal: 'done',
      counts: { done: 1 },
      planFile: join(w.harness, 'PLAN-build.md'),
    });
    expect(listing.active).toEqual({
      name: 'PLAN',
      planFile: join(w.harness, 'PLAN.md'),
      progressFile: join(w.harness, 'progress.md'),
    });
  });

  it('lists another project by slug from the store, with no active plan to tell (no repository, no marker)', async () => {
    const w = await plansWorld();
    const ws = await openWorkspace({ host: hostOf(w) });
    await expect(ws.listPlans()).rejects.toBeInstanceOf(NoPlanHomeError);
    const listing = await ws.listPlans({ project: 'proj' });
    expect(listing.repository).toBeUndefined();
    expect(listing.active).toBeUndefined();
    expect(listing.plans.map((p) => [p.name, p.active])).toEqual([
      ['PLAN', false],
      ['build', false],
      ['docs', false],
    ]);
    expect((await ws.listPlans({ project: 'nobody' })).plans).toEqual([]);
  });

  it('reports a dangling .harness/active-plan as a binding error naming the fix, never as PLAN.md', async () => {
    const w = await plansWorld();
    await writeFile(marker(w), 'gone\n');
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const listing = await ws.listPlans();
    expect(listing.binding).toBe('gone');
    expect(listing.active).toBeUndefined();
    expect(listing.bindingError).toMatch(/binds plan "gone".*PLAN-gone\.md is missing/);
    expect(listing.plans.some((p) => p.active)).toBe(false);
  });
});

describe('switchPlan writes the marker the CLI, the hooks and agentm read', () => {
  it('switches to a named plan, then back to PLAN (the marker removed); the plan files follow', async () => {
    const w = await plansWorld();
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const switched = await ws.switchPlan('PLAN-build.md');
    expect(switched).toEqual({ name: 'build', previous: 'PLAN', marker: marker(w) });
    expect(await readFile(marker(w), 'utf8')).toBe('build\n');
    // A fresh workspace (another front end) sees the same active plan.
    const other = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    expect((await other.planFiles()).name).toBe('build');
    expect((await other.listPlans()).plans.find((p) => p.active)?.name).toBe('build');
    expect((await ws.switchPlan('PLAN')).previous).toBe('build');
    expect(existsSync(marker(w))).toBe(false);
  });

  it('refuses a plan that does not exist, naming the plans there are, and writes nothing', async () => {
    const w = await plansWorld();
    const ws = await openWorkspace({ host: hostOf(w), projectRoot: w.repo });
    const refused = ws.switchPlan('nope');
    await expect(refused).rejects.toBeInstanceOf(PlanNotFoundError);
    await expect(refused).rejects.toThrow(/PLAN-nope\.md \(the plans here: PLAN, build, docs\)/);
    expect(existsSync(marker(w))).toBe(false);
    // A conflict copy is not a plan to switch to either.
    await expect(ws.switchPlan('build (conflicted copy 2026-01-02)')).rejects.toBeInstanceOf(PlanNotFoundError);
  });
});

describe("updateStep: core's transitions, for every front end", () => {
  async function stepWorld(plan: string) {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.harness, 'PLAN.md'), plan);
    return { w, ws: await openWorkspace({ host: hostOf(w), projectRoot: w.repo }) };
  }

  it('refuses to take over a step an agentm run has claimed, and leaves the plan and its log as they were', async () => {
    const plan = '- [/] build it [id:: build] [agent:: 4242@ci-box] [started:: 2026-01-02T10:00:00.000Z]\n';
    const { w, ws } = await stepWorld(plan);
    for (const action of ['done', 'failed', 'start'] as const) {
      const update = ws.updateStep({ step: 'build', action, text: 'took it' }, { actor: 'ann (VS Code)' });
      await expect(update).rejects.toBeInstanceOf(InvalidTransitionError);
      await expect(update).rejects.toThrow(/agentm run \(4242@ci-box\) is running it|already running/);
    }
    expect(await readFile(join(w.harness, 'PLAN.md'), 'utf8')).toBe(plan);
    expect(existsSync(join(w.harness, 'progress.md'))).toBe(false);
  });

  it('refuses a move to the status the step already has', async () => {
    const { ws } = await stepWorld('- [x] build it [id:: build]\n');
    await expect(ws.updateStep({ step: 'build', action: 'done' }, { actor: 'ann' })).rejects.toThrow(/already done/);
  });

  it('starts and finishes a ready step, logging transitions and the result as a note (not a tool result)', async () => {
    const { w, ws } = await stepWorld('- [ ] build it [id:: build]\n- [ ] ship it [id:: ship] [after:: build]\n');
    await expect(ws.updateStep({ step: 'ship', action: 'start' }, { actor: 'ann' })).rejects.toBeInstanceOf(
      InvalidTransitionError,
    ); // its dependency is not done
    const done = await ws.updateStep({ step: 'build', action: 'done', text: 'built in 3 s' }, { actor: 'ann' });
    expect(done).toMatchObject({ plan: 'PLAN', step: 'build', from: 'ready', status: 'done' });
    expect(done.applied.map((t) => `${t.from}→${t.to}`)).toEqual(['ready→running', 'running→done']);
    const log = parseProgress(await readFile(join(w.harness, 'progress.md'), 'utf8'));
    expect(log.map((o) => o.kind)).toEqual(['transition', 'transition', 'note']);
    expect(log[2]).toMatchObject({ actor: 'ann', text: 'built in 3 s' });
    expect(log.some((o) => o.kind === 'tool_result')).toBe(false);
  });

  it("updates another project's plan by slug through the store's lock and compare-and-swap", async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const other = join(w.memoryRoot, 'desk', 'projects', 'other', '_harness');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'PLAN-site.md'), '- [ ] deploy [id:: deploy]\n');
    const ws = await openWorkspace({ host: hostOf(w) }); // no repository: Obsidian's case
    const result = await ws.updateStep(
      { project: 'other', plan: 'site', step: 'deploy', action: 'start' },
      { actor: 'ann (Obsidian)' },
    );
    expect(result.status).toBe('running');
    expect(await readFile(join(other, 'PLAN-site.md'), 'utf8')).toMatch(
      /^- \[\/\] deploy \[id:: deploy\] \[agent:: ann \(Obsidian\)\]/,
    );
  });
});
