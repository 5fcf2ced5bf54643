import { MemoryArgumentError } from '../errors.js';

/** The dev-loop phases of the process seam; anything else reads as `work`. */
export const PHASES = ['setup', 'plan', 'work', 'review', 'release', 'bugfix', 'documenter'] as const;
export type Phase = (typeof PHASES)[number];

/** agentm's recall budgets in tokens (≈ 4 characters each). */
export const PHASE_BUDGETS: Readonly<Record<Phase, number>> = Object.freeze({
  setup: 4000,
  plan: 6000,
  work: 6000,
  review: 4000,
  release: 6000,
  bugfix: 6000,
  documenter: 10000,
});

export const CHARS_PER_TOKEN = 4;

/** Weight of a kind a phase does not list. */
export const OTHER_KIND_WEIGHT = 0.3;

/**
 * How much each phase cares about each kind of memory (multiplies the recall score; 0 leaves the
 * kind out). Kinds: agentm's memory types, common record kinds, and `episode` (progress entries).
 */
export const PHASE_KIND_WEIGHTS: Readonly<Record<Phase, Readonly<Record<string, number>>>> = Object.freeze({
  setup: { convention: 1, workflow: 1, preference: 0.9, reference: 0.8, fix: 0.5, idea: 0.3, episode: 0.3 },
  plan: { brief: 1, design: 1, idea: 0.9, convention: 0.8, reference: 0.8, preference: 0.7, workflow: 0.6, episode: 0.6, fix: 0.4 },
  work: { convention: 1, fix: 0.9, workflow: 0.9, reference: 0.8, preference: 0.8, episode: 0.7, design: 0.6, idea: 0.4 },
  review: { convention: 1, preference: 0.9, fix: 0.8, 'failure-incident': 0.8, reference: 0.6, episode: 0.5, workflow: 0.5 },
  release: { workflow: 1, convention: 0.8, 'failure-incident': 0.7, fix: 0.7, reference: 0.6, episode: 0.6 },
  bugfix: { fix: 1, 'failure-incident': 1, episode: 0.9, reference: 0.7, convention: 0.6, workflow: 0.6 },
  documenter: { reference: 1, design: 0.9, convention: 0.9, workflow: 0.8, idea: 0.6, preference: 0.5, episode: 0.4 },
});

/** The phase, trimmed and lower-cased; unknown or absent → `work` (the seam never raises on a phase). */
export function normalizePhase(phase: string | undefined | null): Phase {
  const p = (phase ?? '').trim().toLowerCase();
  return (PHASES as readonly string[]).includes(p) ? (p as Phase) : 'work';
}

/** The weight of `kind` in `phase`, from `weights` (default PHASE_KIND_WEIGHTS). */
export function kindWeight(phase: Phase, kind: string, weights: Readonly<Record<string, Readonly<Record<string, number>>>> = PHASE_KIND_WEIGHTS): number {
  const table = weights[phase] ?? {};
  return Object.prototype.hasOwnProperty.call(table, kind) ? table[kind]! : OTHER_KIND_WEIGHT;
}

/**
 * The token budget of a phase (agentm's `phase_budget`): a positive `limit` wins; else
 * `HARNESS_RECALL_BUDGET_<PHASE>` when it is a positive integer; else the phase default. A limit that
 * is not a positive integer is a caller error.
 */
export function phaseBudget(phase: string | undefined, options: { limit?: number | undefined; env?: NodeJS.ProcessEnv } = {}): number {
  const p = normalizePhase(phase);
  if (options.limit !== undefined) {
    if (!Number.isInteger(options.limit) || options.limit <= 0) throw new MemoryArgumentError(`recall budget must be a positive number of tokens, got ${options.limit}`);
    return options.limit;
  }
  const raw = (options.env ?? process.env)[`HARNESS_RECALL_BUDGET_${p.toUpperCase()}`]?.trim();
  if (raw && /^\d+$/.test(raw) && Number(raw) > 0) return Number(raw);
  return PHASE_BUDGETS[p];
}
