import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from '../../../../test/helpers/agentm-world.js';
import {
  InvalidTransitionError,
  PlanStatusChangeError,
  RetryRefusedError,
  StalePlanError,
} from '../../src/harness/errors.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { openPlan } from '../../src/workspace/open-plan.js';
import { openWorkspace } from '../../src/workspace/workspace.js';

const PLAN = [
  '---',
  'goal: Ship the release',
  'status: open',
  '---',
  '- [x] build [id:: build]',
  '- [ ] test [id:: test] [after:: build]',
  '- [ ] docs [id:: docs] [dependsOn:: test]',
  '- [/] deploy [id:: deploy] [agent:: 4242@ci-box]',
  '',
].join('\n');

/** The world's vault with PLAN.md in project `proj`, opened by slug as Obsidian does (no repository). */
async function world(): Promise<{ w: AgentmWorld; plan: string; progress: string }> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await writeFile(join(w.harness, 'PLAN.md'), PLAN);
  return { w, plan: join(w.harness, 'PLAN.md'), progress: join(w.harness, 'progress.md') };
}

async function handle(w: AgentmWorld) {
  const ws = await openWorkspace({ host: { env: { HOME: w.home, XDG_CACHE_HOME: join(w.home, 'c') }, home: w.home } });
  return openPlan(ws, undefined, { project: 'proj' });
}

const by = (actor: string, expectHash: string) => ({ actor, expectHash });

describe('a plan as a view reads and steers it (openPlan)', () => {
  it('reads the steps with their dependencies (after:: and dependsOn::), attempts, the hash, and why a step failed', async () => {
    const { w } = await world();
    const plan = await handle(w);
    const read = (await plan.read())!;
    expect(read.title).toBe('Ship the release');
    expect(read.summary.steps.map((s) => [s.id, s.status, s.dependsOn])).toEqual([
      ['build', 'done', []],
      ['test', 'ready', ['build']],
      ['docs', 'pending', ['test']],
      ['deploy', 'running', []],
    ]);
    await plan.update({ step: 'test', action: 'failed', text: 'exit 3: 2 tests failed' }, by('ann', read.hash));
    const after = (await plan.read())!;
    expect(after.summary.steps.find((s) => s.id === 'test')).toMatchObject({ status: 'failed', attempt: 0 });
    expect(after.failures.steps).toEqual([{ id: 'test', title: 'test', attempt: 0, reason: 'exit 3: 2 tests failed' }]);
    expect(after.failures.waiting).toEqual(['docs']);
    expect(after.summary.recent.map((e) => e.text)).toEqual([
      'exit 3: 2 tests failed',
      'ready → running',
      'running → failed',
    ]);
  });

  it('refuses an action on a plan that changed since it was read, and leaves the other write as it was', async () => {
    const { w, plan: file, progress } = await world();
    const plan = await handle(w);
    const shown = (await plan.read())!.hash;
    const agent = PLAN.replace('- [ ] test [id:: test]', '- [/] test [id:: test] [agent:: 777@box]');
    await writeFile(file, agent); // an agent claims the step meanwhile
    await expect(plan.update({ step: 'test', action: 'done' }, by('ann', shown))).rejects.toBeInstanceOf(
      StalePlanError,
    );
    await expect(plan.cancelStep('docs', 'not needed', by('ann', shown))).rejects.toThrow(/changed since it was shown/);
    expect(await readFile(file, 'utf8')).toBe(agent);
    await expect(readFile(progress, 'utf8')).rejects.toThrow(/ENOENT/); // nothing was logged either
  });

  it('cancels a step with its reason logged, and never one an agentm run holds', async () => {
    const { w, plan: file, progress } = await world();
    const plan = await handle(w);
    const { hash } = (await plan.read())!;
    await expect(plan.cancelStep('deploy', 'stop', by('ann', hash))).rejects.toBeInstanceOf(InvalidTransitionError);
    await expect(plan.cancelStep('build', 'x', by('ann', hash))).rejects.toBeInstanceOf(InvalidTransitionError);
    await plan.cancelStep('docs', 'written elsewhere', by('ann', hash));
    expect(await readFile(file, 'utf8')).toContain('- [-] docs [id:: docs] [dependsOn:: test]');
    const log = parseProgress(await readFile(progress, 'utf8'));
    expect(log.map((o) => [o.kind, o.step, o.actor, o.text])).toEqual([
      ['note', 'docs', 'ann', 'written elsewhere'],
      ['transition', 'docs', 'ann', 'pending → cancelled'],
    ]);
  });

  it('retries a failed step, cancels and reopens the plan, each logged; a change that changes nothing is refused', async () => {
    const { w, plan: file } = await world();
    const plan = await handle(w);
    let hash = (await plan.read())!.hash;
    await expect(plan.retry(['test'], by('ann', hash))).rejects.toBeInstanceOf(RetryRefusedError);
    await plan.update({ step: 'test', action: 'failed', text: 'flaky' }, by('ann', hash));
    hash = (await plan.read())!.hash;
    expect((await plan.retry(['test'], by('ann', hash))).steps).toEqual([{ id: 'test', title: 'test', attempt: 1 }]);
    hash = (await plan.read())!.hash;
    await expect(plan.setStatus('open', 'again', by('ann', hash))).rejects.toBeInstanceOf(PlanStatusChangeError);
    await plan.setStatus('cancelled', 'release moved', by('ann', hash));
    expect(await readFile(file, 'utf8')).toMatch(/^status: cancelled$/m);
    const closed = (await plan.read())!;
    expect(closed.summary.status).toBe('cancelled');
    expect(closed.summary.recent.at(-1)?.text).toBe('plan open → cancelled: release moved');
    await plan.setStatus('open', 'release is back', by('ann', closed.hash));
    expect((await plan.read())!.summary.status).toBe('open');
  });
});
