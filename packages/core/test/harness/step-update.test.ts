import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { InvalidTransitionError, PlanNotFoundError, UnknownStepError } from '../../src/harness/errors.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { LocalPlanFiles } from '../../src/harness/reconciler/local-plan-files.js';
import { summarizePlan } from '../../src/harness/reconciler/plan-view.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { appendProgressNote, StepUpdateArgumentError, updateStep } from '../../src/harness/reconciler/step-update.js';

const PLAN = `---
goal: ship the thing
---
# Plan

- [x] build [id:: build]
- [ ] test [id:: test] [after:: build]
- [ ] release [id:: release] [after:: test]
`;

async function planFiles(text: string | null = PLAN) {
  const dir = await tempDir();
  const harness = join(dir, 'repo', '.harness');
  await mkdir(harness, { recursive: true });
  if (text !== null) await writeFile(join(harness, 'PLAN-x.md'), text);
  const files = new LocalPlanFiles(join(harness, 'PLAN-x.md'), join(harness, 'progress-x.md'), {
    lock: { lockRoot: join(dir, 'locks') },
  });
  return {
    files,
    plan: () => readFile(join(harness, 'PLAN-x.md'), 'utf8'),
    progress: async () => parseProgress(await readFile(join(harness, 'progress-x.md'), 'utf8').catch(() => '')),
  };
}

const clock = () => Date.parse('2026-11-26T10:00:00.000Z');

describe('updateStep', () => {
  it('starts a ready step: running, claimed by the actor, the transition logged', async () => {
    const { files, plan, progress } = await planFiles();
    const result = await updateStep(files, 'claude-code', { step: 'test', action: 'start' }, clock);
    expect(result.status).toBe('running');
    expect(await plan()).toContain(
      '- [/] test [id:: test] [after:: build] [agent:: claude-code] [started:: 2026-11-26T10:00:00.000Z]',
    );
    expect((await progress()).map((o) => [o.kind, o.step, o.actor, o.text])).toEqual([
      ['transition', 'test', 'claude-code', 'ready → running'],
    ]);
  });

  it('done on a ready step starts it first (both moves logged), adds the note, and touches only that line', async () => {
    const { files, plan, progress } = await planFiles();
    const result = await updateStep(files, 'agent', { step: 'test', action: 'done', text: 'all green' }, clock);
    expect(result.status).toBe('done');
    expect(result.applied.map((t) => `${t.from}>${t.to}`)).toEqual(['ready>running', 'running>done']);
    const text = await plan();
    expect(text.split('\n').filter((l, i) => l !== PLAN.split('\n')[i])).toHaveLength(1);
    expect((await progress()).map((o) => `${o.kind}:${o.text}`)).toEqual([
      'transition:ready → running',
      'transition:running → done',
      'note:all green',
    ]);
  });

  it('failed needs a reason, logged as the error before the transition; a dead end settles the plan as failed', async () => {
    const { files, progress } = await planFiles();
    await expect(updateStep(files, 'a', { step: 'test', action: 'failed' })).rejects.toBeInstanceOf(
      StepUpdateArgumentError,
    );
    expect(await progress()).toEqual([]); // nothing written
    await updateStep(files, 'a', { step: 'test', action: 'start' }, clock);
    const result = await updateStep(files, 'a', { step: 'test', action: 'failed', text: 'tests time out' }, clock);
    expect(result.status).toBe('failed');
    const log = await progress();
    expect(log.slice(1).map((o) => `${o.kind}:${o.text}`)).toEqual([
      'error:tests time out',
      'transition:running → failed',
      'transition:plan open → failed: one or more steps failed or are permanently blocked',
    ]);
    expect(result.planStatus).toBe('failed');
  });

  it('the last step done settles the plan as done', async () => {
    const { files, plan } = await planFiles();
    await updateStep(files, 'a', { step: 'test', action: 'done' });
    const result = await updateStep(files, 'a', { step: 'release', action: 'done' });
    expect(result.planStatus).toBe('done');
    expect(await plan()).toMatch(/^---\ngoal: ship the thing\nstatus: done\n---/);
  });

  it('a note changes no status and needs its text', async () => {
    const { files, plan, progress } = await planFiles();
    await expect(updateStep(files, 'a', { step: 'test', action: 'note', text: '  ' })).rejects.toBeInstanceOf(
      StepUpdateArgumentError,
    );
    await updateStep(files, 'a', { step: 'test', action: 'note', text: 'flaky on CI' });
    expect(await plan()).toBe(PLAN);
    expect((await progress()).map((o) => [o.kind, o.step, o.text])).toEqual([['note', 'test', 'flaky on CI']]);
  });

  it('refuses what the state machine forbids, and taking over a running step, writing nothing', async () => {
    const { files, plan, progress } = await planFiles(
      PLAN.replace('- [ ] test [id:: test]', '- [/] test [id:: test] [agent:: 4242@build-host]'),
    );
    const before = await plan();
    // release waits for test: pending, not ready.
    await expect(updateStep(files, 'a', { step: 'release', action: 'start' })).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    await expect(updateStep(files, 'a', { step: 'test', action: 'start' })).rejects.toThrow(
      /already running, claimed by 4242@build-host/,
    );
    await expect(updateStep(files, 'a', { step: 'test', action: 'done' })).rejects.toThrow(
      /agentm run \(4242@build-host\) is running it/,
    );
    await expect(updateStep(files, 'a', { step: 'build', action: 'done' })).rejects.toThrow(/already done/);
    await expect(updateStep(files, 'a', { step: 'nope', action: 'done' })).rejects.toBeInstanceOf(UnknownStepError);
    expect(await plan()).toBe(before);
    expect(await progress()).toEqual([]);
  });

  it('without a plan file: PlanNotFoundError naming the file', async () => {
    const { files } = await planFiles(null);
    await expect(updateStep(files, 'a', { step: 'test', action: 'start' })).rejects.toBeInstanceOf(PlanNotFoundError);
  });
});

describe('appendProgressNote', () => {
  it('appends a plan-level note even without a plan file (a free-form log is a log)', async () => {
    const { files, progress } = await planFiles(null);
    const entry = await appendProgressNote(files, 'claude-code', 'context compacted', { data: { event: 'x' } });
    expect(entry.step).toBe('plan:x');
    expect((await progress()).map((o) => [o.step, o.text, o.data['event']])).toEqual([
      ['plan:x', 'context compacted', 'x'],
    ]);
  });

  it('about a step: the step must be in the plan', async () => {
    const { files, progress } = await planFiles();
    await expect(appendProgressNote(files, 'a', 'hm', { step: 'nope' })).rejects.toBeInstanceOf(UnknownStepError);
    await appendProgressNote(files, 'a', 'looked at the logs', { step: 'test' });
    expect((await progress()).map((o) => o.step)).toEqual(['test']);
  });
});

describe('summarizePlan', () => {
  it('gives each step its effective status, dependencies, attempt and latest entry; counts; recent entries', async () => {
    const { files } = await planFiles();
    await updateStep(files, 'a', { step: 'test', action: 'start' }, clock);
    await updateStep(files, 'a', { step: 'test', action: 'note', text: 'half way' }, clock);
    const summary = summarizePlan(
      parsePlan((await files.readPlan())!.text),
      await files.readProgress(),
      { name: 'x', planFile: 'PLAN-x.md', progressFile: 'progress-x.md' },
      { recent: 1 },
    );
    expect(summary.goal).toBe('ship the thing');
    expect(summary.counts).toEqual({ done: 1, running: 1, pending: 1 });
    expect(summary.steps.map((s) => [s.id, s.status, s.dependsOn, s.latest?.text])).toEqual([
      ['build', 'done', [], undefined],
      ['test', 'running', ['build'], 'half way'],
      ['release', 'pending', ['test'], undefined],
    ]);
    expect(summary.recent.map((e) => e.text)).toEqual(['half way']);
    expect(summary.progressTail).toBeUndefined();
  });

  it('shows the end of a free-form (agentm style) progress log, which has no structured entries', () => {
    const summary = summarizePlan(parsePlan(PLAN), '# Progress\n\n## 2026-11-20\nWired the lock.\n', {
      name: 'x',
      planFile: 'p',
      progressFile: 'q',
    });
    expect(summary.recent).toEqual([]);
    expect(summary.progressTail).toContain('Wired the lock.');
    expect(summary.steps.find((s) => s.id === 'test')?.status).toBe('ready');
  });
});
