import type { PlanSpec } from './spec-runner.js';

export interface ScriptedOutcome {
  readonly fail?: boolean;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly result?: string;
}

export interface EvalFixture {
  readonly name: string;
  readonly description: string;
  readonly spec: PlanSpec;
  readonly outcomes: Readonly<Record<string, ScriptedOutcome>>;
  readonly expectSuccess: boolean;
  /** 0 = not asserted. */
  readonly expectDispatches: number;
}

const spec = (name: string, steps: Array<[string, string[]]>): PlanSpec => ({
  name,
  goal: `eval:${name}`,
  steps: steps.map(([id, deps]) => ({ id, deps })),
});

/** memQL's six fixtures: the DAG shapes the harness must get right. Totals: 14 tool calls, 535 tokens. */
export const DEFAULT_FIXTURES: readonly EvalFixture[] = [
  {
    name: 'single-step',
    description: 'one step that succeeds',
    spec: spec('single-step', [['s1', []]]),
    outcomes: { s1: { toolCalls: 1, tokens: 100 } },
    expectSuccess: true,
    expectDispatches: 1,
  },
  {
    name: 'linear-chain',
    description: 's1 → s2 → s3, all succeed',
    spec: spec('linear-chain', [
      ['s1', []],
      ['s2', ['s1']],
      ['s3', ['s2']],
    ]),
    outcomes: { s1: { toolCalls: 1, tokens: 50 }, s2: { toolCalls: 2, tokens: 75 }, s3: { toolCalls: 1, tokens: 60 } },
    expectSuccess: true,
    expectDispatches: 3,
  },
  {
    name: 'fan-out-fan-in',
    description: 'root → {a, b} → join',
    spec: spec('fan-out-fan-in', [
      ['root', []],
      ['a', ['root']],
      ['b', ['root']],
      ['join', ['a', 'b']],
    ]),
    outcomes: {
      root: { toolCalls: 1, tokens: 40 },
      a: { toolCalls: 1, tokens: 40 },
      b: { toolCalls: 1, tokens: 40 },
      join: { toolCalls: 1, tokens: 40 },
    },
    expectSuccess: true,
    expectDispatches: 4,
  },
  {
    name: 'failing-step',
    description: 'one step that fails',
    spec: spec('failing-step', [['s1', []]]),
    outcomes: { s1: { fail: true, toolCalls: 1, tokens: 10 } },
    expectSuccess: false,
    expectDispatches: 1,
  },
  {
    name: 'dead-end-blocked',
    description: 's1 fails, so s2 can never become ready',
    spec: spec('dead-end-blocked', [
      ['s1', []],
      ['s2', ['s1']],
    ]),
    outcomes: { s1: { fail: true, toolCalls: 1, tokens: 10 } },
    expectSuccess: false,
    expectDispatches: 1,
  },
  {
    name: 'mixed-success',
    description: 'good1 → good2 succeed; an independent step fails',
    spec: spec('mixed-success', [
      ['good1', []],
      ['good2', ['good1']],
      ['bad', []],
    ]),
    outcomes: {
      good1: { toolCalls: 1, tokens: 30 },
      good2: { toolCalls: 1, tokens: 30 },
      bad: { fail: true, toolCalls: 1, tokens: 10 },
    },
    expectSuccess: false,
    expectDispatches: 3,
  },
];
