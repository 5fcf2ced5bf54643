/** The dev-loop phases a recall is scoped to. */
export const PHASES = ['setup', 'plan', 'work', 'review', 'release', 'bugfix', 'documenter'] as const;
export type Phase = (typeof PHASES)[number];

/** agentm's per-phase recall budgets, in tokens. */
export const DEFAULT_PHASE_BUDGETS: Readonly<Record<Phase, number>> = {
  setup: 4000,
  plan: 6000,
  work: 6000,
  review: 4000,
  release: 6000,
  bugfix: 6000,
  documenter: 10000,
};

/** The rough size of a token in characters, for budgets. */
export const CHARS_PER_TOKEN = 4;

/** A phase name as given (any case, padded); anything else — absent, unknown — degrades to `work`. */
export function normalizePhase(phase: unknown): Phase {
  const value = typeof phase === 'string' ? phase.trim().toLowerCase() : '';
  return (PHASES as readonly string[]).includes(value) ? (value as Phase) : 'work';
}

function positiveInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number.parseInt(value, 10);
  return n > 0 ? n : undefined;
}

/**
 * The token budget of a phase: a positive `limit` → env `HARNESS_RECALL_BUDGET_<PHASE>` (a positive
 * integer) → agentm's default for the phase.
 */
export function phaseBudget(
  phase: unknown,
  options: { limit?: number | undefined; env?: Readonly<Record<string, string | undefined>> } = {},
): number {
  const normalized = normalizePhase(phase);
  return (
    positiveInt(options.limit) ??
    positiveInt(options.env?.[`HARNESS_RECALL_BUDGET_${normalized.toUpperCase()}`]) ??
    DEFAULT_PHASE_BUDGETS[normalized]
  );
}

/** The character budget of a token budget. */
export function budgetChars(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
