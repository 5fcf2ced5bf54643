import { dataNumber, type Observation } from '../observations/observation.js';

/** Plan limits; a non-positive value disables that limit. */
export interface PlanBudget {
  readonly maxSteps: number;
  readonly maxToolCalls: number;
  readonly maxWallClockMs: number;
  readonly maxTokens: number;
}

/** memQL's default: 50 steps, 500 tool calls, 10 minutes; tokens unlimited. */
export const DEFAULT_PLAN_BUDGET: PlanBudget = Object.freeze({
  maxSteps: 50,
  maxToolCalls: 500,
  maxWallClockMs: 600_000,
  maxTokens: 0,
});

export interface BudgetUsage {
  /** Dispatches (claims), retries included. */
  readonly stepsDispatched: number;
  readonly toolCalls: number;
  readonly tokens: number;
  /** Time during which at least one step was running. */
  readonly elapsedMs: number;
}

export type BudgetLimit = 'max_steps' | 'max_tool_calls' | 'max_wall_clock' | 'max_tokens';

/**
 * The first limit reached, in memQL's fixed order (steps, tool calls, wall clock), then tokens (ours);
 * a limit trips when usage reaches it (`>=`). Undefined when within budget.
 */
export function budgetTripped(budget: PlanBudget, usage: BudgetUsage): BudgetLimit | undefined {
  if (budget.maxSteps > 0 && usage.stepsDispatched >= budget.maxSteps) return 'max_steps';
  if (budget.maxToolCalls > 0 && usage.toolCalls >= budget.maxToolCalls) return 'max_tool_calls';
  if (budget.maxWallClockMs > 0 && usage.elapsedMs >= budget.maxWallClockMs) return 'max_wall_clock';
  if (budget.maxTokens > 0 && usage.tokens >= budget.maxTokens) return 'max_tokens';
  return undefined;
}

/** A budget with every field zero means "not configured" and becomes the default (as in memQL). */
export function normalizeBudget(budget: Partial<PlanBudget> | undefined): PlanBudget {
  const b: PlanBudget = {
    maxSteps: budget?.maxSteps ?? 0,
    maxToolCalls: budget?.maxToolCalls ?? 0,
    maxWallClockMs: budget?.maxWallClockMs ?? 0,
    maxTokens: budget?.maxTokens ?? 0,
  };
  return b.maxSteps <= 0 && b.maxToolCalls <= 0 && b.maxWallClockMs <= 0 && b.maxTokens <= 0 ? DEFAULT_PLAN_BUDGET : b;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads the frontmatter `budget` mapping: `steps`, `tool_calls`, `tokens`, and `minutes` or
 * `wall_clock` (`90s`, `10m`, `1h`, or seconds). Absent → the default budget; a mapping with only some
 * keys leaves the others disabled (memQL's rule). Bad values are reported and ignored.
 */
export function budgetFromMeta(raw: unknown): { budget: PlanBudget; problems: string[] } {
  if (raw === undefined || raw === null) return { budget: DEFAULT_PLAN_BUDGET, problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { budget: DEFAULT_PLAN_BUDGET, problems: ['budget must be a mapping (steps, tool_calls, tokens, minutes)'] };
  const problems: string[] = [];
  const partial: { -readonly [K in keyof PlanBudget]?: number } = {};
  const num = (key: string, value: unknown): number | undefined => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
    problems.push(`budget ${key} must be a non-negative number, got ${JSON.stringify(value)}`);
    return undefined;
  };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const k = key.toLowerCase().replace(/^max_/, '');
    if (k === 'steps') partial.maxSteps = num(key, value);
    else if (k === 'tool_calls') partial.maxToolCalls = num(key, value);
    else if (k === 'tokens') partial.maxTokens = num(key, value);
    else if (k === 'minutes') {
      const m = num(key, value);
      if (m !== undefined) partial.maxWallClockMs = m * 60_000;
    } else if (k === 'wall_clock') {
      const d = typeof value === 'number' ? (['', String(value), 's'] as const) : DURATION.exec(String(value).trim());
      if (d && Number.isFinite(Number(d[1]))) partial.maxWallClockMs = Number(d[1]) * UNIT_MS[d[2] ?? 's']!;
      else problems.push(`budget wall_clock must be a duration like 90s, 10m or 1h, got ${JSON.stringify(value)}`);
    } else problems.push(`unknown budget key "${key}" (use steps, tool_calls, tokens, minutes or wall_clock)`);
  }
  return { budget: normalizeBudget(partial), problems };
}

/**
 * Usage derived from the progress log (never trusted from memory, so it survives restarts):
 * dispatches = transitions to `running`; tool calls and tokens = sums of `tool_calls` and `tokens`;
 * wall time = the union of the intervals during which some step was running (a step still running
 * counts until `now`), so idle time between sessions does not count.
 */
export function usageFromLog(observations: readonly Observation[], now: number): BudgetUsage {
  let stepsDispatched = 0;
  let toolCalls = 0;
  let tokens = 0;
  const open = new Map<string, number>();
  const intervals: Array<[number, number]> = [];
  for (const o of observations) {
    toolCalls += Math.trunc(dataNumber(o, 'tool_calls'));
    tokens += Math.trunc(dataNumber(o, 'tokens'));
    if (o.kind !== 'transition') continue;
    const at = Date.parse(o.time);
    const started = open.get(o.step);
    if (started !== undefined && o.data['from'] === 'running') {
      intervals.push([started, at]);
      open.delete(o.step);
    }
    if (o.data['to'] === 'running') {
      stepsDispatched++;
      open.set(o.step, at);
    }
  }
  for (const started of open.values()) intervals.push([started, Math.max(started, now)]);
  return { stepsDispatched, toolCalls, tokens, elapsedMs: unionLength(intervals) };
}

function unionLength(intervals: Array<[number, number]>): number {
  const sorted = intervals
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}
