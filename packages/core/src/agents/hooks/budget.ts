import type { HookEvent } from './hook-io.js';

/**
 * agentm's hook budgets: what a hook that adds context may cost a session, from the moment its process
 * starts. PreCompact and Stop add nothing to the context and are not raced: their writes finish (each
 * bounded by the vault lock's timeout) rather than being abandoned half-way.
 */
export const HOOK_BUDGET_MS: Readonly<Partial<Record<HookEvent, number>>> = Object.freeze({
  SessionStart: 500,
  UserPromptSubmit: 300,
});

/**
 * The budget of `event` in milliseconds, or undefined when it has none. `AGENTM_HOOK_BUDGET_MS` (a
 * positive whole number) replaces the budgets of the budgeted events, for a slow machine.
 */
export function hookBudgetMs(event: HookEvent, env: Readonly<Record<string, string | undefined>>): number | undefined {
  const base = HOOK_BUDGET_MS[event];
  if (base === undefined) return undefined;
  const override = env['AGENTM_HOOK_BUDGET_MS']?.trim();
  return override !== undefined && /^\d+$/.test(override) && Number(override) > 0 ? Number(override) : base;
}

/** What a race against the deadline gave: the value, or nothing because the deadline came first. */
export type Raced<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/**
 * Races `work` against a deadline (a `performance.now()` value). The work is not cancelled (the hook's
 * process exits after answering); its late result, or failure, is ignored.
 */
export function raceDeadline<T>(work: Promise<T>, deadline: number): Promise<Raced<T>> {
  const left = deadline - performance.now();
  if (left <= 0) {
    work.catch(() => undefined);
    return Promise.resolve({ done: false });
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ done: false }), left);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve({ done: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
