/**
 * Step statuses. Six are written as checkbox symbols (Obsidian Tasks style); `ready` is derived
 * (a pending step whose dependencies are all done) and is written as `[ ]`.
 */
export type StepStatus = 'pending' | 'ready' | 'running' | 'done' | 'failed' | 'blocked' | 'cancelled';
/** A status as stored in the file: everything but the derived `ready`, plus `unknown` for foreign symbols. */
export type StoredStatus = Exclude<StepStatus, 'ready'> | 'unknown';

export const STEP_STATUSES: readonly StepStatus[] = [
  'pending',
  'ready',
  'running',
  'done',
  'failed',
  'blocked',
  'cancelled',
];

/** Checkbox symbol → stored status. `X` is Obsidian's capital done. */
const BY_SYMBOL: Readonly<Record<string, Exclude<StoredStatus, 'unknown'>>> = {
  ' ': 'pending',
  '/': 'running',
  x: 'done',
  X: 'done',
  '!': 'failed',
  '?': 'blocked',
  '-': 'cancelled',
};

/** Status → the symbol written for it. */
export const STATUS_SYMBOL: Readonly<Record<StepStatus, string>> = {
  pending: ' ',
  ready: ' ',
  running: '/',
  done: 'x',
  failed: '!',
  blocked: '?',
  cancelled: '-',
};

/** The stored status a checkbox symbol means; `unknown` for symbols outside the six (e.g. `>`). */
export function statusOfSymbol(symbol: string): StoredStatus {
  return BY_SYMBOL[symbol] ?? 'unknown';
}

export function isStepStatus(value: string): value is StepStatus {
  return (STEP_STATUSES as readonly string[]).includes(value);
}

/** Plan statuses (frontmatter `status`); the last three are terminal. */
export type PlanStatus = 'open' | 'running' | 'done' | 'failed' | 'cancelled';
export const TERMINAL_PLAN_STATUSES: readonly string[] = ['done', 'failed', 'cancelled'];

export function isTerminalPlanStatus(status: string | undefined): boolean {
  return status !== undefined && TERMINAL_PLAN_STATUSES.includes(status.trim().toLowerCase());
}
