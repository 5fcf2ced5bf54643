import { type Phase } from './budget.js';

// The phases, their budgets and the budget rule live in budget.ts (shared with the process seam).

/** Weight of a kind a phase does not list. */
export const OTHER_KIND_WEIGHT = 0.3;

/**
 * How much each phase cares about each kind of memory (multiplies the recall score; 0 leaves the
 * kind out). Kinds: agentm's memory types, common record kinds, and `episode` (progress entries).
 */
export const PHASE_KIND_WEIGHTS: Readonly<Record<Phase, Readonly<Record<string, number>>>> = Object.freeze({
  setup: { convention: 1, workflow: 1, preference: 0.9, reference: 0.8, fix: 0.5, idea: 0.3, episode: 0.3 },
  plan: {
    brief: 1,
    design: 1,
    idea: 0.9,
    convention: 0.8,
    reference: 0.8,
    preference: 0.7,
    workflow: 0.6,
    episode: 0.6,
    fix: 0.4,
  },
  work: {
    convention: 1,
    fix: 0.9,
    workflow: 0.9,
    reference: 0.8,
    preference: 0.8,
    episode: 0.7,
    design: 0.6,
    idea: 0.4,
  },
  review: {
    convention: 1,
    preference: 0.9,
    fix: 0.8,
    'failure-incident': 0.8,
    reference: 0.6,
    episode: 0.5,
    workflow: 0.5,
  },
  release: { workflow: 1, convention: 0.8, 'failure-incident': 0.7, fix: 0.7, reference: 0.6, episode: 0.6 },
  bugfix: { fix: 1, 'failure-incident': 1, episode: 0.9, reference: 0.7, convention: 0.6, workflow: 0.6 },
  documenter: { reference: 1, design: 0.9, convention: 0.9, workflow: 0.8, idea: 0.6, preference: 0.5, episode: 0.4 },
});

/** The weight of `kind` in `phase`, from `weights` (default PHASE_KIND_WEIGHTS). */
export function kindWeight(
  phase: Phase,
  kind: string,
  weights: Readonly<Record<string, Readonly<Record<string, number>>>> = PHASE_KIND_WEIGHTS,
): number {
  const table = weights[phase] ?? {};
  return Object.prototype.hasOwnProperty.call(table, kind) ? table[kind]! : OTHER_KIND_WEIGHT;
}
