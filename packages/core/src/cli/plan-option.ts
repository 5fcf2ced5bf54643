import { CliError, EXIT_USAGE } from './errors.js';

/**
 * A plan name given on the command line (`--plan`, `plan --name`), as the workspace takes it. A blank
 * one is a usage error: it would normalize to the singleton, and a typo or an empty shell variable must
 * never run (or overwrite) PLAN.md. Absent stays absent (the active binding, else PLAN.md).
 */
export function planOption(value: string | undefined, flag = '--plan'): string | undefined {
  if (value !== undefined && value.trim() === '')
    throw new CliError(
      `${flag} is blank: name the plan (foo → PLAN-foo.md, PLAN for PLAN.md), or leave ${flag} out`,
      EXIT_USAGE,
    );
  return value;
}
