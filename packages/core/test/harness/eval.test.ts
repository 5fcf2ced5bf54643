import { describe, expect, it } from 'vitest';
import { checkThreshold, DEFAULT_THRESHOLD, runEval } from '../../src/harness/trace/eval.js';
import { DEFAULT_FIXTURES as FIXTURES } from '../../src/harness/trace/eval-fixtures.js';

describe('eval fixtures through the real reconciler', () => {
  it('the six fixtures meet their expected outcomes, orders and totals, and clear the default threshold', async () => {
    const report = await runEval(FIXTURES);
    const byName = Object.fromEntries(report.scores.map((s) => [s.name, s]));
    expect(report.scores.map((s) => s.name)).toEqual([
      'dead-end-blocked',
      'failing-step',
      'fan-out-fan-in',
      'linear-chain',
      'mixed-success',
      'single-step',
    ]);
    expect(Object.fromEntries(report.scores.map((s) => [s.name, [s.success, s.stepDispatches, s.passed]]))).toEqual({
      'single-step': [true, 1, true],
      'linear-chain': [true, 3, true],
      'fan-out-fan-in': [true, 4, true],
      'failing-step': [false, 1, true],
      'dead-end-blocked': [false, 1, true],
      'mixed-success': [false, 3, true],
    });
    expect(byName['linear-chain']!.order).toEqual(['s1', 's2', 's3']);
    expect(byName['fan-out-fan-in']!.order).toEqual(['root', 'a', 'b', 'join']);
    expect(byName['mixed-success']!.order).toEqual(['good1', 'bad', 'good2']);
    expect(byName['dead-end-blocked']!.order).toEqual(['s1']);
    expect([report.total, report.passedCount, report.successRate, report.totalToolCalls, report.totalTokens]).toEqual([
      6, 6, 0.5, 14, 535,
    ]);
    expect(checkThreshold(report, DEFAULT_THRESHOLD)).toEqual({ passed: true, violations: [] });
  });
});
