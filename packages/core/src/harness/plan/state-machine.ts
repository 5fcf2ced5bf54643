import { InvalidTransitionError, RetryAttemptError } from '../errors.js';
import { isStepStatus, type StepStatus } from './step-status.js';

/**
 * The seed's step state machine (memQL `stepTransitionAllowed`), plus `cancelled`: a user's stop, reachable
 * from every non-final status and final itself. Self-transitions are allowed (they re-write fields only).
 */
const ALLOWED: Readonly<Record<StepStatus, readonly StepStatus[]>> = {
  pending: ['ready', 'cancelled'],
  ready: ['running', 'cancelled'],
  running: ['blocked', 'done', 'failed', 'cancelled'],
  blocked: ['ready', 'cancelled'],
  done: [],
  failed: ['ready', 'cancelled'],
  cancelled: [],
};

/**
 * Whether `from → to` is allowed. Evaluation order as in memQL: `to` must be a status (exact, case
 * sensitive); an empty `from` (a new step) is allowed; `from` must be a status; self is allowed; then the table.
 */
export function stepTransitionAllowed(from: string, to: string): boolean {
  if (!isStepStatus(to)) return false;
  if (from === '') return true;
  if (!isStepStatus(from)) return false;
  if (from === to) return true;
  return ALLOWED[from].includes(to);
}

/** Only `failed → ready` is constrained: the new attempt must be strictly greater. */
export function retryBumpsAttempt(from: string, to: string, priorAttempt: number, newAttempt: number): boolean {
  if (from !== 'failed' || to !== 'ready') return true;
  return newAttempt > priorAttempt;
}

/** Throws the typed error for a forbidden move; returns normally for an allowed one. */
export function assertTransition(
  step: string,
  from: string,
  to: string,
  priorAttempt: number,
  newAttempt: number,
): void {
  if (!isStepStatus(to)) throw new InvalidTransitionError(step, from, to, `unknown status "${to}"`);
  if (from !== '' && !isStepStatus(from)) throw new InvalidTransitionError(step, from, to, `unknown status "${from}"`);
  if (!stepTransitionAllowed(from, to)) throw new InvalidTransitionError(step, from, to);
  if (!retryBumpsAttempt(from, to, priorAttempt, newAttempt)) throw new RetryAttemptError(step, priorAttempt);
}
