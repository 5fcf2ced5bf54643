import { describe, expect, it } from 'vitest';
import { findCycle, stepDepths } from '../../src/harness/plan/plan-graph.js';
import { preflightPlan } from '../../src/harness/executors/preflight.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { effectiveStatus } from '../../src/harness/plan/plan-edit.js';
import { assignStepIds } from '../../src/harness/plan/step-ids.js';
import { validateDecompose, type DecomposedStep } from '../../src/harness/planner/dag.js';

const DEPTH = 10_000;

describe('plans far larger than anyone writes still parse', () => {
  it(`a ${DEPTH}-level nested plan parses without overflowing the stack`, () => {
    // Each item one tab deeper than the last: the smallest text with that much nesting (~50 MB).
    const lines: string[] = [];
    for (let i = 0; i < DEPTH; i++) lines.push(`${'\t'.repeat(i)}- [ ] level ${i}${i === 0 ? ' [after:: root]' : ''}`);
    const doc = parsePlan(`- [x] root [id:: root]\n${lines.join('\n')}\n`);
    expect(doc.steps).toHaveLength(DEPTH + 1);
    const deepest = doc.steps[DEPTH]!;
    expect(deepest.parent).toBe(`level-${DEPTH - 2}`);
    // The outer after:: is inherited all the way down.
    expect(deepest.deps).toEqual(['root']);
    expect(doc.steps[1]!.deps).toEqual(['root', 'level-1']);
    expect(doc.problems.filter((p) => p.severity === 'error')).toEqual([]);
    // What `agentm run` asks of it first: its pre-flight walked the nesting recursively (issue 20: a
    // 3 000-level plan stopped the run with "Maximum call stack size exceeded").
    expect(preflightPlan(doc, { projectRoot: '/', env: {}, hasModel: true })).toEqual([]);
    expect(doc.steps.filter((s) => effectiveStatus(doc, s) === 'ready').map((s) => s.title)).toEqual([
      `level ${DEPTH - 1}`,
    ]);
  });

  it('cycle search and depths over a 10 000-step dependency chain do not recurse', () => {
    const chain = Array.from({ length: DEPTH }, (_, i) => ({ id: `s${i}`, deps: i > 0 ? [`s${i - 1}`] : [] }));
    expect(findCycle(chain)).toBeUndefined();
    expect(stepDepths(chain).get(`s${DEPTH - 1}`)).toBe(DEPTH - 1);
    expect(findCycle([...chain.slice(1), { id: 's0', deps: [`s${DEPTH - 1}`] }])).toBeDefined();
  });

  it('a 10 000-step chain from a model validates without recursing', () => {
    const steps: DecomposedStep[] = Array.from({ length: DEPTH }, (_, i) => ({
      key: `s${i}`,
      title: `t${i}`,
      goal: '',
      dependsOn: i > 0 ? [`s${i - 1}`] : [],
      roleHint: '',
    }));
    expect(validateDecompose(steps)).toHaveLength(DEPTH);
    expect(() => validateDecompose([{ ...steps[0]!, dependsOn: [`s${DEPTH - 1}`] }, ...steps.slice(1)])).toThrow(
      /cycle/,
    );
  });

  it('8 000 identical step titles get distinct ids, suffixed in order', () => {
    const n = 8_000;
    const same = Array.from({ length: n }, () => ({ title: 'Run the tests' }));
    const ids = assignStepIds(same);
    expect(ids.slice(0, 3)).toEqual(['run-the-tests', 'run-the-tests-2', 'run-the-tests-3']);
    expect(new Set(ids).size).toBe(n);
    // Explicit ids that collide with a derived suffix are skipped over, as before.
    expect(assignStepIds([{ title: 'a' }, { title: 'a', explicitId: 'a-2' }, { title: 'a' }])).toEqual([
      'a',
      'a-2',
      'a-3',
    ]);
    // How long it takes (linear: 8 000 identical ≈ 8 000 distinct) is measured in bench/plan-ids.mjs.
  });
});
