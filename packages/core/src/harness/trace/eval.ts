import { dispatcherFrom } from '../reconciler/dispatcher.js';
import type { EvalFixture } from './eval-fixtures.js';
import { runSpec } from './spec-runner.js';

export interface FixtureScore {
  readonly name: string;
  readonly passed: boolean;
  readonly reasons: readonly string[];
  readonly success: boolean;
  readonly stepCount: number;
  readonly stepDispatches: number;
  readonly order: readonly string[];
  readonly toolCalls: number;
  readonly tokens: number;
  readonly wallClockMs: number;
}

export interface EvalReport {
  readonly total: number;
  readonly passedCount: number;
  readonly successRate: number;
  readonly totalToolCalls: number;
  readonly totalTokens: number;
  readonly totalWallClockMs: number;
  /** Sorted by fixture name. */
  readonly scores: readonly FixtureScore[];
}

export interface EvalThreshold {
  readonly minPassRate: number;
  readonly minSuccessRate: number;
  readonly maxTotalToolCalls: number;
  readonly maxTotalTokens: number;
}

/** memQL's gate, cleared by the default fixtures (pass 1.0, success 0.5, 14 calls, 535 tokens). */
export const DEFAULT_THRESHOLD: EvalThreshold = Object.freeze({
  minPassRate: 1,
  minSuccessRate: 0.5,
  maxTotalToolCalls: 16,
  maxTotalTokens: 600,
});

/** Runs one fixture through the real reconciler with its scripted outcomes and scores it. */
export async function runFixture(fixture: EvalFixture): Promise<FixtureScore> {
  const run = await runSpec(
    fixture.spec,
    dispatcherFrom(async ({ step }) => {
      const o = fixture.outcomes[step.id];
      if (!o) return { status: 'done', summary: '{"ok":true}', toolCalls: 0, tokens: 0 };
      if (o.fail)
        return {
          status: 'failed',
          summary: `scripted failure for step "${step.id}"`,
          toolCalls: o.toolCalls,
          tokens: o.tokens,
        };
      return { status: 'done', summary: o.result ?? '{"ok":true}', toolCalls: o.toolCalls, tokens: o.tokens };
    }),
  );
  const success = run.status === 'done';
  const reasons: string[] = [];
  if (success !== fixture.expectSuccess)
    reasons.push(`expected success=${fixture.expectSuccess}, got success=${success} (status mismatch)`);
  if (fixture.expectDispatches > 0 && run.claims.length !== fixture.expectDispatches)
    reasons.push(`expected ${fixture.expectDispatches} step dispatch(es), got ${run.claims.length}`);
  return {
    name: fixture.name,
    passed: reasons.length === 0,
    reasons,
    success,
    stepCount: fixture.spec.steps.length,
    stepDispatches: run.claims.length,
    order: run.claims,
    toolCalls: run.usage.toolCalls,
    tokens: run.usage.tokens,
    wallClockMs: run.wallClockMs,
  };
}

/** Runs every fixture; a run error aborts with `fixture "<name>": <error>`. */
export async function runEval(fixtures: readonly EvalFixture[]): Promise<EvalReport> {
  const scores: FixtureScore[] = [];
  for (const f of fixtures) {
    try {
      scores.push(await runFixture(f));
    } catch (error) {
      throw new Error(`fixture "${f.name}": ${(error as Error).message}`, { cause: error });
    }
  }
  scores.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const total = scores.length;
  return {
    total,
    passedCount: scores.filter((s) => s.passed).length,
    successRate: total === 0 ? 0 : scores.filter((s) => s.success).length / total,
    totalToolCalls: scores.reduce((n, s) => n + s.toolCalls, 0),
    totalTokens: scores.reduce((n, s) => n + s.tokens, 0),
    totalWallClockMs: scores.reduce((n, s) => n + s.wallClockMs, 0),
    scores,
  };
}

/** memQL `CheckThreshold`: every violated dimension, in order; each checked only when its threshold is > 0. */
export function checkThreshold(report: EvalReport, t: EvalThreshold): { passed: boolean; violations: string[] } {
  const passRate = report.total === 0 ? 0 : report.passedCount / report.total;
  const v: string[] = [];
  if (t.minPassRate > 0 && passRate < t.minPassRate)
    v.push(`pass rate ${passRate.toFixed(3)} below floor ${t.minPassRate.toFixed(3)}`);
  if (t.minSuccessRate > 0 && report.successRate < t.minSuccessRate)
    v.push(`success rate ${report.successRate.toFixed(3)} below floor ${t.minSuccessRate.toFixed(3)}`);
  if (t.maxTotalToolCalls > 0 && report.totalToolCalls > t.maxTotalToolCalls)
    v.push(`total tool calls ${report.totalToolCalls} exceeds cap ${t.maxTotalToolCalls}`);
  if (t.maxTotalTokens > 0 && report.totalTokens > t.maxTotalTokens)
    v.push(`total tokens ${report.totalTokens} exceeds cap ${t.maxTotalTokens}`);
  return { passed: v.length === 0, violations: v };
}
