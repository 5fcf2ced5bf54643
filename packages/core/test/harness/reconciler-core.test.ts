import { describe, expect, it } from 'vitest';
import { makeObservation } from '../../src/harness/observations/observation.js';
import {
  budgetFromMeta,
  budgetTripped,
  DEFAULT_PLAN_BUDGET,
  normalizeBudget,
  usageFromLog,
} from '../../src/harness/reconciler/budget.js';
import {
  computePlanTerminal,
  dependenciesSatisfied,
  dependencyDeadEnd,
  indexById,
  promotablePending,
  selectRunnable,
  type StepView,
} from '../../src/harness/reconciler/core.js';

const v = (id: string, status: string, deps: string[] = []): StepView => ({ id, status, deps });
const steps = [v('a', 'done'), v('b', 'failed'), v('c', 'running'), v('d', 'cancelled'), v('e', 'pending')];
const byId = indexById(steps);

describe('dependencies', () => {
  it.each([
    [[], true, false],
    [['a'], true, false],
    [['a', 'c'], false, false],
    [['b'], false, true],
    [['ghost'], false, true],
    [['d'], false, true],
    [['e', 'a'], false, false],
  ])('deps %j: satisfied %s, dead end %s', (deps, satisfied, deadEnd) => {
    expect(dependenciesSatisfied(deps, byId)).toBe(satisfied);
    expect(dependencyDeadEnd(deps, byId)).toBe(deadEnd);
  });

  it('indexById keeps the later of repeated ids', () => {
    expect(indexById([v('x', 'pending'), v('x', 'done')]).get('x')!.status).toBe('done');
  });
});

describe('promotion and runnable selection', () => {
  it('promotes pending and blocked steps whose deps are done (a dependency-less blocked step too), in order', () => {
    const s = [
      v('a', 'done'),
      v('p1', 'pending', ['a']),
      v('p2', 'pending', ['x']),
      v('b1', 'blocked', ['a']),
      v('b2', 'blocked'),
      v('r', 'ready'),
      v('x', 'running'),
    ];
    expect(promotablePending(s).map((x) => x.id)).toEqual(['p1', 'b1', 'b2']);
    expect(selectRunnable(s).map((x) => x.id)).toEqual(['r']);
  });
});

describe('terminal status', () => {
  it.each<[string, StepView[], string]>([
    ['empty plan', [], ''],
    ['all done', [v('a', 'done'), v('b', 'done')], 'done'],
    ['done and cancelled', [v('a', 'done'), v('b', 'cancelled')], 'done'],
    ['all cancelled', [v('a', 'cancelled')], 'cancelled'],
    ['a failure with nothing in flight', [v('a', 'done'), v('b', 'failed')], 'failed'],
    ['a failure while another runs', [v('a', 'running'), v('b', 'failed')], ''],
    ['pending on a failed step (dead end)', [v('a', 'failed'), v('b', 'pending', ['a'])], 'failed'],
    ['pending on a missing step (dead end)', [v('b', 'pending', ['zz'])], 'failed'],
    ['pending on a cancelled step (dead end)', [v('a', 'cancelled'), v('b', 'pending', ['a'])], 'failed'],
    ['pending with deps in flight', [v('a', 'running'), v('b', 'pending', ['a'])], ''],
    ['blocked whose blocker just finished counts in flight', [v('a', 'done'), v('b', 'blocked', ['a'])], ''],
    ['blocked with no deps is stuck (the asymmetry)', [v('a', 'done'), v('b', 'blocked')], 'failed'],
    ['blocked on an unfinished dep is stuck', [v('a', 'pending', ['zz']), v('b', 'blocked', ['a'])], 'failed'],
    ['ready is in flight', [v('a', 'ready')], ''],
    ['an unknown status is in flight', [v('a', 'unknown')], ''],
  ])('%s → %j', (_name, s, expected) => {
    expect(computePlanTerminal(s)).toBe(expected);
  });
});

describe('budgets', () => {
  const b = { maxSteps: 3, maxToolCalls: 10, maxWallClockMs: 1000, maxTokens: 50 };
  it.each([
    [{ stepsDispatched: 2, toolCalls: 9, tokens: 49, elapsedMs: 999 }, undefined],
    [{ stepsDispatched: 3, toolCalls: 10, tokens: 50, elapsedMs: 1000 }, 'max_steps'],
    [{ stepsDispatched: 0, toolCalls: 10, tokens: 50, elapsedMs: 1000 }, 'max_tool_calls'],
    [{ stepsDispatched: 0, toolCalls: 0, tokens: 50, elapsedMs: 1000 }, 'max_wall_clock'],
    [{ stepsDispatched: 0, toolCalls: 0, tokens: 50, elapsedMs: 0 }, 'max_tokens'],
  ])('usage %j trips %s (>=, in memQL order, tokens last)', (usage, limit) => {
    expect(budgetTripped(b, usage)).toBe(limit);
  });

  it('a non-positive limit is disabled; an all-zero budget is the default (50 / 500 / 10 min)', () => {
    expect(
      budgetTripped(
        { maxSteps: 0, maxToolCalls: -1, maxWallClockMs: 0, maxTokens: 0 },
        { stepsDispatched: 1e9, toolCalls: 1e9, tokens: 1e9, elapsedMs: 1e9 },
      ),
    ).toBeUndefined();
    expect(normalizeBudget({})).toEqual(DEFAULT_PLAN_BUDGET);
    expect(DEFAULT_PLAN_BUDGET).toEqual({ maxSteps: 50, maxToolCalls: 500, maxWallClockMs: 600_000, maxTokens: 0 });
    expect(normalizeBudget({ maxSteps: 3 })).toEqual({ maxSteps: 3, maxToolCalls: 0, maxWallClockMs: 0, maxTokens: 0 });
  });

  it.each([
    [undefined, DEFAULT_PLAN_BUDGET, []],
    [{ steps: 3 }, { maxSteps: 3, maxToolCalls: 0, maxWallClockMs: 0, maxTokens: 0 }, []],
    [
      { max_tool_calls: 7, tokens: 100, minutes: 2 },
      { maxSteps: 0, maxToolCalls: 7, maxWallClockMs: 120_000, maxTokens: 100 },
      [],
    ],
    [{ wall_clock: '90s' }, { maxSteps: 0, maxToolCalls: 0, maxWallClockMs: 90_000, maxTokens: 0 }, []],
    [
      { steps: -1, colour: 'red' },
      DEFAULT_PLAN_BUDGET,
      [
        'budget steps must be a non-negative number, got -1',
        'unknown budget key "colour" (use steps, tool_calls, tokens, minutes or wall_clock)',
      ],
    ],
    ['lots', DEFAULT_PLAN_BUDGET, ['budget must be a mapping (steps, tool_calls, tokens, minutes)']],
  ])('frontmatter budget %j', (raw, budget, problems) => {
    expect(budgetFromMeta(raw)).toEqual({ budget, problems });
  });

  it('derives usage from the log: dispatches, summed tool calls and tokens, union of running time', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const t = (step: string, from: string, to: string, s: number) =>
      makeObservation({ kind: 'transition', step, actor: 'x', text: '', data: { from, to }, time: at(s) });
    const log = [
      t('a', 'ready', 'running', 0),
      t('b', 'ready', 'running', 5),
      makeObservation({
        kind: 'tool_result',
        step: 'a',
        actor: 'x',
        text: '',
        data: { tool_calls: 3, tokens: 100 },
        time: at(10),
      }),
      t('a', 'running', 'done', 10),
      makeObservation({
        kind: 'error',
        step: 'b',
        actor: 'x',
        text: '',
        data: { tool_calls: 2, tokens: 'n/a' },
        time: at(20),
      }),
      t('b', 'running', 'failed', 20),
      t('b', 'failed', 'ready', 100),
      t('b', 'ready', 'running', 100),
      makeObservation({ kind: 'note', step: 'b', actor: 'x', text: '', data: { calls: 99 }, time: at(101) }),
    ];
    // Running intervals [0,10] ∪ [5,20] ∪ [100, now=130] = 20 s + 30 s: idle time between does not count.
    expect(usageFromLog(log, at(130).getTime())).toEqual({
      stepsDispatched: 3,
      toolCalls: 5,
      tokens: 100,
      elapsedMs: 50_000,
    });
  });
});
