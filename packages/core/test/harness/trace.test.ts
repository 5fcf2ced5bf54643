import { describe, expect, it } from 'vitest';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { dispatcherFrom } from '../../src/harness/reconciler/dispatcher.js';
import { computeMetrics } from '../../src/harness/trace/metrics.js';
import { goDuration, renderTrace } from '../../src/harness/trace/render.js';
import {
  classifyDeterminism,
  NON_DETERMINISTIC_REASON,
  replaySpecFromTrace,
  replayTrace,
} from '../../src/harness/trace/replay.js';
import { renderSpecPlan, runSpec } from '../../src/harness/trace/spec-runner.js';
import { assembleTrace, isComplete, replaySequence } from '../../src/harness/trace/trace.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s));
const tr = (step: string, from: string, to: string, s: number, attempt = 0) =>
  makeObservation({
    kind: 'transition',
    step,
    attempt,
    actor: '7@h',
    text: `${from} → ${to}`,
    data: { from, to },
    time: at(s),
  });

describe('trace', () => {
  const doc = parsePlan(
    '---\ngoal: Ship\nstatus: failed\n---\n- [x] Alpha [id:: a]\n- [!] Beta [id:: b] [after:: a]\n- [ ] Gamma [id:: c] [after:: b]\n',
  );
  const log = [
    tr('b', 'ready', 'running', 5),
    tr('a', 'ready', 'running', 0),
    makeObservation({
      kind: 'tool_result',
      step: 'a',
      actor: '7@h',
      text: 'step "a" completed (2 tool call(s)): ok',
      data: { tool: 'shell', tool_calls: 2, tokens: 30 },
      time: at(3),
    }),
    tr('a', 'running', 'done', 3),
    makeObservation({
      kind: 'error',
      step: 'b',
      actor: '7@h',
      text: `step "b" dispatch failed: ${'x'.repeat(120)}`,
      data: { tool_calls: 1, tokens: 'lots' },
      time: at(95),
    }),
    tr('b', 'running', 'failed', 95),
    tr('plan:demo', 'open', 'failed', 95),
  ];
  const trace = assembleTrace('demo', doc, log);

  it('orders events by time, ties plan < step < observation (memQL), and rolls steps up in first-seen order then plan order', () => {
    expect(trace.events.map((e) => `${e.kind}:${e.stepId}:${e.status || e.observationKind}`)).toEqual([
      'step:a:running',
      'step:a:done',
      'observation:a:tool_result',
      'step:b:running',
      'plan:plan:demo:failed',
      'step:b:failed',
      'observation:b:error',
    ]);
    expect(trace.steps.map((s) => [s.id, s.title, s.finalStatus, s.transitions.length, s.observations.length])).toEqual(
      [
        ['a', 'Alpha', 'done', 2, 1],
        ['b', 'Beta', 'failed', 2, 1],
        ['c', 'Gamma', 'pending', 0, 0],
      ],
    );
    expect([trace.goal, trace.finalStatus, isComplete(trace)]).toEqual(['Ship', 'failed', true]);
    expect(replaySequence(trace)).toEqual(['a', 'b']);
    expect(trace.planEvents).toHaveLength(1);
  });

  it('breaks a tie at one instant by kind, plan < step < observation, and keeps log order within a kind', () => {
    const obs = (step: string, text: string) => makeObservation({ kind: 'note', step, actor: 'me', text, time: at(7) });
    const tied = assembleTrace('t', undefined, [
      obs('b', 'note on b'),
      tr('b', 'running', 'done', 7),
      obs('a', 'note on a'),
      tr('plan:t', 'open', 'done', 7),
      tr('a', 'running', 'done', 7),
      tr('c', 'ready', 'running', 6),
    ]);
    expect(tied.events.map((e) => `${e.kind}:${e.stepId}:${e.content}`)).toEqual([
      'step:c:ready → running',
      'plan:plan:t:open → done',
      'step:b:running → done',
      'step:a:running → done',
      'observation:b:note on b',
      'observation:a:note on a',
    ]);
  });

  it('counts a tool_result without a tool-call count as one call (memQL), and an explicit count as given', () => {
    const result = (
      step: string,
      data: Record<string, number | string> = {},
      kind: 'tool_result' | 'note' = 'tool_result',
    ) => makeObservation({ kind, step, actor: 'agent', text: 'ran it', data, time: at(1) });
    const t = assembleTrace('m', undefined, [
      result('a'), // an agent's own log entry: one call
      result('a', { tool: 'read_file' }), // one call
      result('b', { tool_calls: 3 }), // a step's result: three
      result('b', { tool_calls: 0 }), // counted elsewhere: none
      result('c', { tool_calls: 'many' }), // not a number: one, as if absent
      result('c', {}, 'note'), // a note is no call
    ]);
    expect(computeMetrics(t).toolCalls).toBe(1 + 1 + 3 + 0 + 1 + 0);
  });

  it('computes metrics from the trace', () => {
    expect(computeMetrics(trace)).toEqual({
      success: false,
      stepCount: 3,
      stepsCompleted: 1,
      stepsFailed: 1,
      toolCalls: 3,
      tokens: 30,
      wallClockMs: 95_000,
      observationCount: 2,
      errorCount: 1,
    });
  });

  it('renders the timeline like memQL’s, but shows an observation whole (no cut), wrapped to a width', () => {
    const text = renderTrace(trace);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Plan demo',
      '  goal:   Ship',
      '  status: failed',
      '  metrics: success=false steps=3 (done=1 failed=1) toolCalls=3 tokens=30 wall=1m35s observations=2 errors=1',
    ]);
    expect(text).toContain('  2026-01-01T12:00:00.000Z  [step]   running  ready->running by 7@h -- a (Alpha)\n');
    expect(text).toContain('  2026-01-01T12:01:35.000Z  [plan]   failed   open->failed by 7@h\n');
    const errorLine = text.split('\n').find((l) => l.includes('[obs]    error'))!;
    expect(errorLine).toMatch(new RegExp(`-- b: step "b" dispatch failed: x{120}$`));
    expect(text).not.toContain('…');
    // On a terminal 80 columns wide: every line fits, and the x's are all there, continued beneath.
    const narrow = renderTrace(trace, { width: 80 }).split('\n');
    const at = narrow.findIndex((l) => l.includes('[obs]    error'));
    const block = [narrow[at]!];
    for (let i = at + 1; /^ {30,}\S/.test(narrow[i]!); i++) block.push(narrow[i]!);
    expect(block.length).toBeGreaterThan(1);
    expect(block.every((l) => [...l].length <= 80)).toBe(true);
    expect(block.join('').replace(/\s+/g, '')).toContain(`b:step"b"dispatchfailed:${'x'.repeat(120)}`);
    expect(renderTrace(assembleTrace('none', undefined, []))).toBe(
      'Plan none\n  status: (unknown)\n  metrics: success=false steps=0 (done=0 failed=0) toolCalls=0 tokens=0 wall=0s observations=0 errors=0\n\n  (no timeline events -- plan not found or no activity)\n',
    );
  });

  it.each([
    [0, '0s'],
    [250, '250ms'],
    [1500, '1.5s'],
    [10_000, '10s'],
    [90_000, '1m30s'],
    [3_600_000, '1h0m0s'],
    [3_723_456, '1h2m3.456s'],
  ])('goDuration(%d) = %s', (ms, text) => {
    expect(goDuration(ms)).toBe(text);
  });
});

describe('replay', () => {
  it.each([
    [
      [
        ['a', []],
        ['b', ['a']],
        ['c', ['b']],
      ],
      true,
      [],
    ],
    [
      [
        ['r', []],
        ['a', ['r']],
        ['b', ['r']],
        ['j', ['a', 'b']],
      ],
      false,
      [['a', 'b']],
    ],
    [
      [
        ['x', []],
        ['y', []],
      ],
      false,
      [['x', 'y']],
    ],
    [[['a', ['ghost']]], true, []],
  ] as Array<[Array<[string, string[]]>, boolean, string[][]]>)(
    'DAG %j deterministic: %s',
    (steps, deterministic, waves) => {
      const d = classifyDeterminism({ name: 'x', goal: '', steps: steps.map(([id, deps]) => ({ id, deps })) });
      expect(d).toEqual({
        deterministic,
        reason: deterministic ? '' : NON_DETERMINISTIC_REASON,
        ambiguousWaves: waves,
      });
    },
  );

  it('reproduces a recorded run of a chain exactly, and flags a recorded order the DAG does not allow', async () => {
    const spec = {
      name: 'chain',
      goal: 'g',
      steps: [
        { id: 'a', deps: [] },
        { id: 'b', deps: ['a'] },
        { id: 'c', deps: ['b'] },
      ],
    };
    const run = await runSpec(
      spec,
      dispatcherFrom(async () => ({ status: 'done', summary: '', toolCalls: 0, tokens: 0 })),
    );
    const doc = parsePlan(run.plan);
    const ok = await replayTrace(assembleTrace('chain', doc, parseProgress(run.progress)), doc);
    expect(ok).toMatchObject({
      recorded: ['a', 'b', 'c'],
      replayed: ['a', 'b', 'c'],
      reproduced: true,
      determinism: { deterministic: true },
    });
    const tampered = [tr('b', 'ready', 'running', 1), tr('a', 'ready', 'running', 2), tr('c', 'ready', 'running', 3)];
    const bad = await replayTrace(assembleTrace('chain', doc, tampered), doc);
    expect([bad.recorded, bad.replayed, bad.reproduced]).toEqual([['b', 'a', 'c'], ['a', 'b', 'c'], false]);
  });

  it("keeps each step's inputs in the replay spec (memQL: Input from the step view), leaving out the run's own state", () => {
    const doc = parsePlan(
      [
        '- [x] Build it [id:: build] [cmd:: make all] [role:: builder] [timeout:: 5m] [agent:: 7@h] [attempt:: 2] [key:: k1] [started:: 2026-01-01T00:00:00.000Z]',
        '  Use the release profile.',
        '- [x] Check it [id:: check] [after:: build] [tools:: read_file, run_command]',
        '',
      ].join('\n'),
    );
    const trace = assembleTrace('inputs', doc, [
      tr('build', 'ready', 'running', 1),
      tr('check', 'ready', 'running', 2),
    ]);
    const spec = replaySpecFromTrace(trace, doc);
    expect(spec.steps).toEqual([
      {
        id: 'build',
        title: 'Build it',
        deps: [],
        input: { cmd: 'make all', role: 'builder', timeout: '5m' },
        details: 'Use the release profile.',
      },
      { id: 'check', title: 'Check it', deps: ['build'], input: { tools: 'read_file, run_command' }, details: '' },
    ]);
    // The replayed plan carries them: a fresh, pending copy of each step with its inputs.
    const replayed = parsePlan(renderSpecPlan(spec));
    expect(
      replayed.steps.map((s) => [s.id, s.stored, s.attempt, s.agent, s.cmd, s.role, s.fields['timeout'], s.details]),
    ).toEqual([
      ['build', 'pending', 0, undefined, 'make all', 'builder', '5m', 'Use the release profile.'],
      ['check', 'pending', 0, undefined, undefined, undefined, undefined, ''],
    ]);
    expect(replayed.steps[1]!.fields['tools']).toBe('read_file, run_command');
  });

  it('compares a fan-out as sets (advisory) because its wave order is not DAG-determined (the spec keeps trace order)', async () => {
    const doc = parsePlan('- [x] r [id:: r]\n- [x] a [id:: a] [after:: r]\n- [x] b [id:: b] [after:: r]\n');
    const result = await replayTrace(
      assembleTrace('fan', doc, [
        tr('r', 'ready', 'running', 1),
        tr('b', 'ready', 'running', 2),
        tr('a', 'ready', 'running', 3),
      ]),
      doc,
    );
    expect(result).toMatchObject({
      recorded: ['r', 'b', 'a'],
      replayed: ['r', 'b', 'a'],
      reproduced: true,
      determinism: { deterministic: false, ambiguousWaves: [['b', 'a']] },
    });
    // A run that skipped a step the DAG allows is not reproduced, even compared as sets.
    const partial = await replayTrace(
      assembleTrace('fan', doc, [tr('r', 'ready', 'running', 1), tr('b', 'ready', 'running', 2)]),
      doc,
    );
    expect([partial.replayed, partial.reproduced]).toEqual([['r', 'b', 'a'], false]);
  });
});
