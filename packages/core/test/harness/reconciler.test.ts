import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { PlanValidationError } from '../../src/harness/errors.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { BackendPlanFiles } from '../../src/harness/reconciler/backend-plan-files.js';
import { dispatcherFrom, type DispatchRequest, type StepOutcome } from '../../src/harness/reconciler/dispatcher.js';
import { defaultStepKey, Reconciler } from '../../src/harness/reconciler/reconciler.js';
import { runReconciler } from '../../src/harness/reconciler/run-loop.js';
import type { PlanFiles } from '../../src/harness/reconciler/plan-files.js';

function setup(plan: string) {
  const backend = new MemoryBackend();
  const planLoc = backend.resolve('_harness', 'PLAN-t.md');
  const files = new BackendPlanFiles(backend, planLoc, backend.resolve('_harness', 'progress-t.md'), { pollMs: 20 });
  return { files, ready: backend.write(planLoc, plan) };
}

const ok = (toolCalls = 1): StepOutcome => ({ status: 'done', summary: 'ok', toolCalls, tokens: 10 });
const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

async function state(files: BackendPlanFiles) {
  const plan = parsePlan((await files.readPlan())!.text);
  const log = parseProgress(await files.readProgress());
  return {
    plan,
    log,
    running: log.filter((o) => o.kind === 'transition' && o.data['to'] === 'running').map((o) => o.step),
  };
}

describe('the reconciler over a plan', () => {
  it('runs at most 4 steps at once and dispatches every step exactly once', async () => {
    const { files, ready } = setup(Array.from({ length: 10 }, (_, i) => `- [ ] step ${i}\n`).join(''));
    await ready;
    let active = 0;
    let peak = 0;
    const seen: string[] = [];
    const dispatcher = dispatcherFrom(async ({ step }) => {
      seen.push(step.id);
      peak = Math.max(peak, ++active);
      await tick(15);
      active--;
      return ok();
    });
    const result = await runReconciler(new Reconciler({ files, dispatcher }), { tickIntervalMs: 50 });
    expect(result.terminal).toBe('done');
    expect(peak).toBe(4);
    expect([...seen].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `step-${i}`).sort());
    const { plan, running } = await state(files);
    expect(running).toHaveLength(10);
    expect(plan.meta.status).toBe('done');
    expect(plan.steps.every((s) => s.stored === 'done' && s.key === defaultStepKey('t', s.id))).toBe(true);
  });

  it('runs a hand-added [/] step no one claimed (it is pending), instead of waiting on it forever', async () => {
    const { files, ready } = setup('- [x] a [id:: a]\n- [/] b [id:: b] [after:: a]\n');
    await ready;
    const seen: string[] = [];
    const dispatcher = dispatcherFrom(async ({ step }) => (seen.push(step.id), ok()));
    const result = await runReconciler(new Reconciler({ files, dispatcher }), { tickIntervalMs: 50 });
    expect(result.terminal).toBe('done');
    expect(seen).toEqual(['b']);
    const { log } = await state(files);
    expect(log.filter((o) => o.kind === 'transition' && o.step === 'b').map((o) => `${o.step}:${o.text}`)).toEqual([
      'b:ready → running',
      'b:running → done',
    ]);
  });

  it('halts the plan with a decision observation when the step budget is reached, dispatching nothing more', async () => {
    const { files, ready } = setup(
      '---\nbudget: {steps: 2}\n---\n- [ ] a [id:: a]\n- [ ] b [id:: b] [after:: a]\n- [ ] c [id:: c] [after:: b]\n',
    );
    await ready;
    const r = new Reconciler({ files, dispatcher: dispatcherFrom(async () => ok()) });
    const reports = [await r.tick({ wait: true }), await r.tick({ wait: true }), await r.tick({ wait: true })];
    expect(reports.map((x) => x.claimed)).toEqual([['a'], ['b'], []]);
    expect(reports[2]).toMatchObject({ halted: 'max_steps', terminal: 'failed' });
    const { plan, log } = await state(files);
    expect(plan.meta.status).toBe('failed');
    expect(plan.steps.find((s) => s.id === 'c')!.stored).toBe('pending');
    const decision = log.find((o) => o.kind === 'decision')!;
    expect(decision).toMatchObject({
      step: 'plan:t',
      text: 'plan halted: budget "max_steps" exceeded',
      data: { choice: 'halt_plan', limit: 'max_steps', steps_dispatched: 2 },
    });
    expect((await r.tick()).skipped).toBe('terminal');
  });

  it('counts tool calls reported by dispatches against the tool-call budget', async () => {
    const { files, ready } = setup(
      '---\nbudget: {tool_calls: 5}\n---\n- [ ] a\n- [ ] b [after:: a]\n- [ ] c [after:: b]\n',
    );
    await ready;
    const r = new Reconciler({ files, dispatcher: dispatcherFrom(async () => ok(3)) });
    await r.tick({ wait: true });
    await r.tick({ wait: true });
    expect(await r.tick({ wait: true })).toMatchObject({ halted: 'max_tool_calls', claimed: [] });
  });

  it('retries a step whose claimant is gone with its attempt bumped and its idempotency key unchanged', async () => {
    const plan = `- [/] a [id:: a] [key:: k-a] [agent:: 999999999@${hostname()}] [started:: 2026-01-01T00:00:00.000Z]\n- [/] far [id:: far] [agent:: 1@another-host]\n- [/] a person is on it [agent:: alice]\n`;
    const { files, ready } = setup(plan);
    await ready;
    const requests: DispatchRequest[] = [];
    const r = new Reconciler({ files, dispatcher: dispatcherFrom(async (req) => (requests.push(req), ok())) });
    const report = await r.tick({ wait: true });
    expect(report.recovered).toEqual(['a']);
    expect(requests.map((q) => [q.step.id, q.attempt, q.stepKey])).toEqual([['a', 1, 'k-a']]);
    const { plan: after, log } = await state(files);
    expect(after.steps.map((s) => [s.id, s.stored, s.attempt])).toEqual([
      ['a', 'done', 1],
      ['far', 'running', 0],
      ['a-person-is-on-it', 'running', 0],
    ]);
    expect(log[0]).toMatchObject({ kind: 'error', step: 'a', attempt: 0, data: { reason: 'claimant_gone' } });
    expect(
      log
        .filter((o) => o.kind === 'transition' && o.step === 'a')
        .map((o) => `${o.data['from']}->${o.data['to']}@${o.attempt}`),
    ).toEqual(['running->failed@0', 'failed->ready@1', 'ready->running@1', 'running->done@1']);
  });

  it('gives up on a step that lost its claimant too often', async () => {
    const { files, ready } = setup(`- [/] a [attempt:: 3] [agent:: 999999999@${hostname()}]\n`);
    await ready;
    const r = new Reconciler({ files, dispatcher: dispatcherFrom(async () => ok()) });
    expect((await r.tick({ wait: true })).terminal).toBe('failed');
    expect((await state(files)).plan.steps[0]).toMatchObject({ stored: 'failed', attempt: 3 });
  });

  it('promotes a blocked step once its blocker is done, logging the transition', async () => {
    const { files, ready } = setup('- [x] a [id:: a]\n- [?] b [id:: b] [after:: a]\n');
    await ready;
    const r = new Reconciler({ files, dispatcher: dispatcherFrom(async () => ok()) });
    const report = await r.tick({ wait: true });
    expect([report.promoted, report.claimed, report.terminal]).toEqual([['b'], ['b'], 'done']);
    expect((await state(files)).log[0]).toMatchObject({
      kind: 'transition',
      step: 'b',
      data: { from: 'blocked', to: 'ready' },
    });
  });

  it('discards the result of a step a person cancelled while it ran', async () => {
    const { files, ready } = setup('- [ ] a [id:: a]\n');
    await ready;
    const dispatcher = dispatcherFrom(async () => {
      const snap = (await files.readPlan())!;
      await files.commit({ plan: { text: snap.text.replace('[/]', '[-]'), expectHash: snap.hash } });
      return ok();
    });
    const report = await new Reconciler({ files, dispatcher }).tick({ wait: true });
    expect(report.terminal).toBe('cancelled');
    const { log } = await state(files);
    expect(log.find((o) => o.kind === 'note')!.text).toBe('result of attempt 0 discarded: the step is now cancelled');
  });

  it('releases a running step for a retry when the reconciler stops', async () => {
    const { files, ready } = setup('- [ ] slow [id:: slow]\n');
    await ready;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const dispatcher = dispatcherFrom(
      ({ signal }) =>
        new Promise<StepOutcome>((resolve) => {
          started();
          signal.addEventListener('abort', () =>
            resolve({ status: 'failed', summary: 'aborted', toolCalls: 0, tokens: 0 }),
          );
        }),
    );
    const r = new Reconciler({ files, dispatcher });
    await r.tick();
    await running;
    await r.stop();
    const { plan, log } = await state(files);
    expect(plan.steps[0]).toMatchObject({ stored: 'pending', attempt: 1 });
    expect(log.some((o) => o.kind === 'error' && o.data['reason'] === 'interrupted')).toBe(true);
  });

  it('a stop while a claim is being written waits for that step to be launched and released', async () => {
    const { files, ready } = setup('- [ ] slow [id:: slow]\n');
    await ready;
    let claimWritten!: () => void;
    const claiming = new Promise<void>((r) => (claimWritten = r));
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    let commits = 0;
    const slowClaim: PlanFiles = {
      name: files.name,
      planLabel: files.planLabel,
      progressLabel: files.progressLabel,
      readPlan: () => files.readPlan(),
      readProgress: () => files.readProgress(),
      commit: async (change) => {
        await files.commit(change);
        if (++commits === 1) {
          claimWritten(); // the claim is on disk; its tick has not launched the step yet
          await held;
        }
      },
    };
    const dispatcher = dispatcherFrom(
      ({ signal }) =>
        new Promise<StepOutcome>((resolve) => {
          if (signal.aborted) resolve({ status: 'failed', summary: 'aborted', toolCalls: 0, tokens: 0 });
          signal.addEventListener('abort', () =>
            resolve({ status: 'failed', summary: 'aborted', toolCalls: 0, tokens: 0 }),
          );
        }),
    );
    const r = new Reconciler({ files: slowClaim, dispatcher });
    const ticking = r.tick();
    await claiming;
    expect((await state(files)).plan.steps[0]!.stored).toBe('running');
    const stopping = r.stop();
    setImmediate(letGo); // once stop() is under way
    await stopping;
    // Released by the time stop() returns (not later, behind the caller's back).
    expect((await state(files)).plan.steps[0]).toMatchObject({ stored: 'pending', attempt: 1 });
    await ticking;
  });

  it('refuses a plan with a dependency cycle, and skips one already terminal', async () => {
    const cyclic = setup('- [ ] a [id:: a] [after:: b]\n- [ ] b [id:: b] [after:: a]\n');
    await cyclic.ready;
    await expect(
      new Reconciler({ files: cyclic.files, dispatcher: dispatcherFrom(async () => ok()) }).tick(),
    ).rejects.toBeInstanceOf(PlanValidationError);
    const done = setup('---\nstatus: done\n---\n- [ ] a\n');
    await done.ready;
    expect(
      await new Reconciler({ files: done.files, dispatcher: dispatcherFrom(async () => ok()) }).tick(),
    ).toMatchObject({ skipped: 'terminal', terminal: 'done' });
  });

  it('two reconcilers in one process never run the same step twice', async () => {
    const { files, ready } = setup(Array.from({ length: 12 }, (_, i) => `- [ ] s${i}\n`).join(''));
    await ready;
    const runs: string[] = [];
    const dispatcher = dispatcherFrom(async ({ step }) => (runs.push(step.id), await tick(2), ok()));
    const a = new Reconciler({ files, dispatcher, claimant: { pid: process.pid, host: 'host-a' } });
    const b = new Reconciler({ files, dispatcher, claimant: { pid: process.pid, host: 'host-b' } });
    const [ra, rb] = await Promise.all([
      runReconciler(a, { tickIntervalMs: 20 }),
      runReconciler(b, { tickIntervalMs: 20 }),
    ]);
    expect([ra.terminal, rb.terminal]).toEqual(['done', 'done']);
    expect([...runs].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
    expect((await state(files)).running).toHaveLength(12);
  });
});
