import { isSafeSegment } from '../routing/slug.js';
import { InvalidStateFileNameError, UnsafePlanNameError } from './errors.js';

/** The file pair of a plan. */
export interface PlanPair {
  readonly plan: string;
  readonly progress: string;
  /** The plan slug; undefined for the singleton `PLAN.md`/`progress.md`. */
  readonly name: string | undefined;
}

export const SINGLETON_PAIR: PlanPair = Object.freeze({ plan: 'PLAN.md', progress: 'progress.md', name: undefined });

/**
 * Normalizes a plan name: trimmed, one trailing `.md` and one leading `PLAN-` dropped. Empty or `PLAN`
 * means the singleton (undefined).
 */
export function normalizePlanName(raw: string): string | undefined {
  let name = raw.trim();
  if (name.endsWith('.md')) name = name.slice(0, -3);
  if (name.startsWith('PLAN-')) name = name.slice(5);
  return name === '' || name === 'PLAN' ? undefined : name;
}

/** The pair of a normalized name (undefined → singleton). Throws `UnsafePlanNameError` for an unsafe name. */
export function planPair(name: string | undefined): PlanPair {
  if (name === undefined) return SINGLETON_PAIR;
  if (!isSafeSegment(name)) throw new UnsafePlanNameError(name);
  return { plan: `PLAN-${name}.md`, progress: `progress-${name}.md`, name };
}

/** Throws `InvalidStateFileNameError` unless `name` is one safe file name. */
export function assertStateFileName(name: string): void {
  if (typeof name !== 'string' || !isSafeSegment(name) || name.trim() !== name)
    throw new InvalidStateFileNameError(String(name));
}
