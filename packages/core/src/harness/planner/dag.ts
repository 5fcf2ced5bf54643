import { HarnessError } from '../errors.js';
import { walkForCycle } from '../plan/plan-graph.js';

/** One step of a decomposition (memQL `PlanStep`), before it becomes a checklist item. */
export interface DecomposedStep {
  readonly key: string;
  readonly title: string;
  readonly goal: string;
  readonly dependsOn: readonly string[];
  readonly roleHint: string;
}

/** A decomposition that is not a valid DAG; its message names the first problem found. */
export class DecomposeValidationError extends HarnessError {
  constructor(message: string) {
    super(message, { code: 'EDECOMPOSE' });
  }
}

/**
 * Checks a decomposition (memQL `ValidateDecompose`), in order: at least one step; per step a non-empty
 * unique key and a non-empty title; per dependency not itself and a known key (repeats dropped); no
 * cycle (depth-first in input order; the message names the step the back-edge lands on). Returns the
 * cleaned steps (fields trimmed) in input order; throws `DecomposeValidationError`.
 */
export function validateDecompose(steps: readonly DecomposedStep[]): DecomposedStep[] {
  if (steps.length === 0) throw new DecomposeValidationError('decompose produced no steps');
  const seen = new Set<string>();
  const cleaned = steps.map((s, i) => {
    const key = String(s.key ?? '').trim();
    if (key === '') throw new DecomposeValidationError(`step ${i} has empty key`);
    if (seen.has(key)) throw new DecomposeValidationError(`duplicate step key "${key}"`);
    seen.add(key);
    const title = String(s.title ?? '').trim();
    if (title === '') throw new DecomposeValidationError(`step "${key}" has empty title`);
    return { ...s, key, title, goal: String(s.goal ?? '').trim(), roleHint: String(s.roleHint ?? '').trim() };
  });
  const out = cleaned.map((s) => {
    const deps: string[] = [];
    for (const raw of s.dependsOn ?? []) {
      const dep = String(raw).trim();
      if (dep === '') continue;
      if (dep === s.key) throw new DecomposeValidationError(`step "${s.key}" depends on itself`);
      if (!seen.has(dep)) throw new DecomposeValidationError(`step "${s.key}" depends on unknown key "${dep}"`);
      if (!deps.includes(dep)) deps.push(dep);
    }
    return { ...s, dependsOn: deps };
  });
  const byKey = new Map(out.map((s) => [s.key, s.dependsOn]));
  walkForCycle(
    byKey.keys(),
    (key) => byKey.get(key),
    (dep) => {
      throw new DecomposeValidationError(`decompose DAG has a cycle through step "${dep}"`);
    },
  );
  return out;
}

/** memQL's planner truncation: trim; within `max` bytes → as is; else the first max−3 bytes, trimmed, + `...`. */
export function truncateText(text: string, max: number): string {
  const s = text.trim();
  const bytes = Buffer.from(s, 'utf8');
  if (max <= 0 || bytes.length <= max) return s;
  const cut = (n: number) =>
    bytes
      .subarray(0, n)
      .toString('utf8')
      .replace(/\uFFFD+$/, '');
  if (max <= 3) return cut(max);
  return `${cut(max - 3).trim()}...`;
}

/** The one-step plan used whenever decomposition fails: key `s1`, the goal as title (≤ 120 bytes). */
export function singleStepFallback(goal: string): DecomposedStep[] {
  const g = goal.trim();
  return [
    { key: 's1', title: g === '' ? 'complete the goal' : truncateText(g, 120), goal: g, dependsOn: [], roleHint: '' },
  ];
}
