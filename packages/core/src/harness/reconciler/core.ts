/**
 * The reconciler's pure decision core (memQL `reconcile_logic`): which steps can be promoted, which can
 * run, and whether the plan has reached a terminal status. Data in, data out; table-tested.
 *
 * Our one extension: `cancelled` (a user's stop). A dependency on a cancelled step is a dead end; a
 * cancelled step is settled (neither in flight nor failed).
 */
export interface StepView {
  readonly id: string;
  /** Stored status (`pending` for `[ ]`), or `ready` once promoted; any other string is treated as in flight. */
  readonly status: string;
  readonly deps: readonly string[];
}

/** id → step; when ids repeat, the later one wins. */
export function indexById<T extends StepView>(steps: readonly T[]): Map<string, T> {
  const byId = new Map<string, T>();
  for (const s of steps) byId.set(s.id, s);
  return byId;
}

/** Every dependency is present and done. No dependencies → true; an unknown id → false. */
export function dependenciesSatisfied(deps: readonly string[], byId: ReadonlyMap<string, StepView>): boolean {
  return deps.every((d) => byId.get(d)?.status === 'done');
}

/** Some dependency is absent (dangling), failed or cancelled: the step can never run. */
export function dependencyDeadEnd(deps: readonly string[], byId: ReadonlyMap<string, StepView>): boolean {
  return deps.some((d) => {
    const s = byId.get(d);
    return s === undefined || s.status === 'failed' || s.status === 'cancelled';
  });
}

/** Steps whose status is exactly `ready`, in input order (a snapshot; the claim is the real guard). */
export function selectRunnable<T extends StepView>(steps: readonly T[]): T[] {
  return steps.filter((s) => s.status === 'ready');
}

/**
 * Pending or blocked steps whose dependencies are satisfied, in input order. A blocked step with no
 * dependencies is therefore always promotable (memQL's documented behaviour, kept as is).
 */
export function promotablePending<T extends StepView>(steps: readonly T[]): T[] {
  const byId = indexById(steps);
  return steps.filter((s) => (s.status === 'pending' || s.status === 'blocked') && dependenciesSatisfied(s.deps, byId));
}

export type PlanTerminal = '' | 'done' | 'failed' | 'cancelled';

/**
 * The plan's terminal status, or '' while it can still move:
 * all steps done (or cancelled, with at least one done) → `done`; all cancelled → `cancelled`;
 * nothing in flight and some step failed or is a dead end → `failed`; else ''. A blocked step whose
 * dependencies are all done counts as in flight (it is promoted next tick), so a plan is not failed in
 * the tick its blocker completes; a blocked step with no dependencies counts as stuck (the asymmetry
 * with `promotablePending` is memQL's, kept on purpose). An empty plan is not terminal.
 */
export function computePlanTerminal(steps: readonly StepView[]): PlanTerminal {
  if (steps.length === 0) return '';
  const byId = indexById(steps);
  let allSettled = true;
  let anyDone = false;
  let anyFailedOrBlocked = false;
  let anyInFlight = false;
  for (const s of steps) {
    switch (s.status) {
      case 'done':
        anyDone = true;
        break;
      case 'cancelled':
        break;
      case 'pending':
        allSettled = false;
        if (dependencyDeadEnd(s.deps, byId)) anyFailedOrBlocked = true;
        else anyInFlight = true;
        break;
      case 'blocked':
        allSettled = false;
        if (s.deps.length > 0 && dependenciesSatisfied(s.deps, byId)) anyInFlight = true;
        else anyFailedOrBlocked = true;
        break;
      case 'failed':
        allSettled = false;
        anyFailedOrBlocked = true;
        break;
      default:
        allSettled = false;
        anyInFlight = true;
    }
  }
  if (allSettled) return anyDone ? 'done' : 'cancelled';
  if (anyInFlight) return '';
  return anyFailedOrBlocked ? 'failed' : '';
}
