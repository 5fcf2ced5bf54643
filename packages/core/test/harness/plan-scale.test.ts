import { describe, expect, it } from 'vitest';
import { findCycle, stepDepths } from '../../src/harness/plan/plan-graph.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { assignStepIds } from '../../src/harness/plan/step-ids.js';
import { validateDecompose, type DecomposedStep } from '../../src/harness/planner/dag.js';

const DEPTH = 10_000;

/** Median wall time of `fn` over three runs (ms). */
function medianMs(fn: () => void): number {
  const times = [0, 1, 2].map(() => {
    const t = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - t) / 1e6;
  });
  return times.sort((a, b) => a - b)[1]!;
}

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

  it('identical step titles get their ids in linear time (8 000 identical ≈ 8 000 distinct)', () => {
    const n = 8_000;
    const same = Array.from({ length: n }, () => ({ title: 'Run the tests' }));
    const distinct = Array.from({ length: n }, (_, i) => ({ title: `Run the tests ${i}` }));
    const ids = assignStepIds(same);
    expect(ids.slice(0, 3)).toEqual(['run-the-tests', 'run-the-tests-2', 'run-the-tests-3']);
    expect(new Set(ids).size).toBe(n);
    // Explicit ids that collide with a derived suffix are skipped over, as before.
    expect(assignStepIds([{ title: 'a' }, { title: 'a', explicitId: 'a-2' }, { title: 'a' }])).toEqual([
      'a',
      'a-2',
      'a-3',
    ]);
    const sameMs = medianMs(() => assignStepIds(same));
    const distinctMs = medianMs(() => assignStepIds(distinct));
    // Quadratic was ~100× at this size; linear stays within a small factor of the baseline.
    expect(sameMs / Math.max(distinctMs, 1)).toBeLessThan(8);
  });
});
