import {
  resolvePlanFiles as resolveHarnessPlanFiles,
  type ResolvedPlanFiles,
} from '../harness/reconciler/resolve-plan-files.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { cliSecrets, hostOf } from './support.js';

export type { ResolvedPlanFiles };

/**
 * Where the CLI's harness commands find a plan and its progress log: the project of the run's cwd, then
 * the harness's routing (`planFilesFor`: explicit name → `.harness/active-plan` marker → PLAN.md; the
 * vault's `<project>/_harness/` when a synced backend is selected, else the repo's `.harness/`).
 * Selection errors and a dangling marker propagate. A blank name given on the command line (`flag`,
 * e.g. `--plan "  "`) is a usage error: it normalizes to the singleton, and a typo or an empty shell
 * variable must never run (or overwrite) PLAN.md. What is logged is redacted (`cliSecrets`).
 */
export async function resolvePlanFiles(
  ctx: CliContext,
  planName?: string,
  flag = '--plan',
): Promise<ResolvedPlanFiles> {
  if (planName !== undefined && planName.trim() === '')
    throw new CliError(
      `${flag} is blank: name the plan (foo → PLAN-foo.md, PLAN for PLAN.md), or leave ${flag} out`,
      EXIT_USAGE,
    );
  return resolveHarnessPlanFiles({ cwd: ctx.io.cwd, host: hostOf(ctx), planName, secrets: await cliSecrets(ctx) });
}
