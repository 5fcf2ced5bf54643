import { AgentMError, EXIT_USAGE } from '../seam/errors.js';

/** Base of every error the harness throws on purpose (plans, steps, executors, planner). */
export class HarnessError extends AgentMError {
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, { code: options?.code ?? 'EHARNESS', cause: options?.cause });
  }
}

/** A write asked the step state machine for a move it forbids (e.g. done → running). */
export class InvalidTransitionError extends HarnessError {
  readonly step: string;
  readonly from: string;
  readonly to: string;
  constructor(step: string, from: string, to: string, why?: string) {
    super(
      `plan step "${step}": invalid transition "${from}" -> "${to}"${why ? ` (${why})` : ''}. ` +
        'A step moves pending → ready → running → done | failed | blocked; blocked → ready; failed → ready with its attempt ' +
        'incremented; done is final; cancelled is terminal. Another worker may already have moved it: re-read the plan.',
      { code: 'EINVALIDTRANSITION' },
    );
    this.step = step;
    this.from = from;
    this.to = to;
  }
}

/** A failed → ready retry that does not increment the attempt counter (it would replay the same attempt). */
export class RetryAttemptError extends HarnessError {
  readonly step: string;
  readonly attempt: number;
  constructor(step: string, attempt: number) {
    super(
      `plan step "${step}": retry ("failed" -> "ready") must increment attempt (was ${attempt}); ` +
        `set [attempt:: ${attempt + 1}] (or higher) when retrying it.`,
      { code: 'ERETRYATTEMPT' },
    );
    this.step = step;
    this.attempt = attempt;
  }
}

/** A step id that is not in the plan (or is ambiguous because two steps share it). */
export class UnknownStepError extends HarnessError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly step: string;
  constructor(step: string, detail = 'no checklist item has this id') {
    super(`plan step "${step}" not found: ${detail}. Run \`agentm trace\` to list the plan's step ids.`, {
      code: 'EUNKNOWNSTEP',
    });
    this.step = step;
  }
}

/** A plan the reconciler refuses to run (duplicate ids, a dependency cycle). */
export class PlanValidationError extends HarnessError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly problems: readonly string[];
  constructor(plan: string, problems: readonly string[]) {
    super(`plan ${plan} cannot run: ${problems.join('; ')}. Fix the PLAN file and run again.`, {
      code: 'EPLANINVALID',
    });
    this.problems = problems;
  }
}

/** A plan file that does not exist where the harness looked. */
export class PlanNotFoundError extends HarnessError {
  override readonly exitCode: number = EXIT_USAGE;
  readonly plan: string;
  constructor(plan: string) {
    super(`no plan at ${plan}: create it with \`agentm plan "<goal>"\` or write the PLAN file by hand.`, {
      code: 'EPLANNOTFOUND',
    });
    this.plan = plan;
  }
}

/** `agentm plan` would overwrite a plan: a new plan file is written only where none exists. */
export class PlanExistsError extends HarnessError {
  readonly plan: string;
  constructor(plan: string) {
    super(`a plan already exists at ${plan}: choose another name, or remove that plan first`, { code: 'EPLANEXISTS' });
    this.plan = plan;
  }
}

/**
 * A change asked for against a plan as someone saw it, when the file has changed since (an agent wrote
 * it): nothing is written, so the other write is never lost; look at the plan again and choose again.
 */
export class StalePlanError extends HarnessError {
  readonly plan: string;
  constructor(plan: string, shown: string, now: string | undefined) {
    super(
      `${plan} changed since it was shown (shown ${shown.slice(0, 12)}, now ${now === undefined ? 'gone' : now.slice(0, 12)}): nothing was written. Look at the plan again and choose again.`,
      { code: 'ESTALEPLAN' },
    );
    this.plan = plan;
  }
}

/** A plan status change that would change nothing (reopening an open plan, cancelling a cancelled one). */
export class PlanStatusChangeError extends HarnessError {
  constructor(plan: string, status: string, to: string) {
    super(`plan ${plan} is ${status}; it cannot be ${to === 'open' ? 'reopened' : `set to ${to}`}`, {
      code: 'EPLANSTATUS',
    });
  }
}

/** A retry the state machine cannot make: the step is not failed (only a failed step is retried). */
export class RetryRefusedError extends HarnessError {
  readonly step: string;
  readonly status: string;
  constructor(plan: string, step: string, status: string) {
    super(
      `step '${step}' of plan '${plan}' is ${status}, not failed; only a failed step can be retried` +
        (status === 'ready' || status === 'pending' ? ' (the next run picks it up)' : ''),
      { code: 'ERETRYREFUSED' },
    );
    this.step = step;
    this.status = status;
  }
}
