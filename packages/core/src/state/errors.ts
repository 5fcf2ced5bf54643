import { AgentMError, EXIT_USAGE } from '../seam/errors.js';

/** The family of harness-state problems. */
export class StateError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
}

/**
 * A present `.harness/active-plan` marker that does not resolve (blank, unsafe, or naming a plan that
 * is missing or empty). Never degraded to `PLAN.md`: that would bind this worker to another plan.
 */
export class ActivePlanError extends StateError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'EACTIVEPLAN', cause });
  }
}

/** An explicit plan name that is not one safe path component. */
export class UnsafePlanNameError extends StateError {
  readonly planName: string;
  constructor(planName: string) {
    super(
      `unsafe plan name ${JSON.stringify(planName)}: a plan slug must be a single path component (not '.' or '..', no '/', '\\' or NUL), ` +
        'e.g. --plan my-feature for PLAN-my-feature.md',
      { code: 'EPLANNAME' },
    );
    this.planName = planName;
  }
}

/** A state file name that is not one safe path component (it would write outside the state directory). */
export class InvalidStateFileNameError extends StateError {
  readonly fileName: string;
  constructor(fileName: string, detail?: string) {
    super(
      `invalid state file name ${JSON.stringify(fileName)}: ` +
        (detail ??
          "it must be a single file name inside the harness state directory (not empty, not '.' or '..', no '/', '\\' or NUL)") +
        ', e.g. PLAN.md or progress-my-feature.md',
      { code: 'ESTATEFILENAME' },
    );
    this.fileName = fileName;
  }
}
