import { join } from 'node:path';
import { BackendPlanFiles } from '../harness/reconciler/backend-plan-files.js';
import { LocalPlanFiles } from '../harness/reconciler/local-plan-files.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import { defaultLockRoot } from '../protocol/vault-lock.js';
import { resolveProject } from '../routing/resolve-project.js';
import { resolveActivePlan } from '../state/active-plan.js';
import { stateLocation } from '../state/state-location.js';
import type { CliContext } from './context.js';
import { hostOf } from './support.js';

export interface ResolvedPlanFiles {
  readonly files: PlanFiles;
  /** `PLAN` for the singleton pair, else the plan's name. */
  readonly name: string;
  /** Where shell steps run and LLM tools may read and write. */
  readonly projectRoot: string;
}

/**
 * Where the CLI's harness commands find a plan and its progress log, routed exactly like the state
 * verbs (DESIGN §7): the project is resolved from the cwd; the plan is the explicit name, else the
 * repo's `.harness/active-plan` marker (a dangling or unsafe marker is an error, never a fall-back to
 * PLAN.md), else the singleton pair; the files live in the vault's `<project>/_harness/` when a synced
 * backend is selected (written through its lock and CAS), else in the repo's `.harness/` (under the lock
 * keyed on that directory). Selection errors propagate.
 */
export async function resolvePlanFiles(ctx: CliContext, planName?: string): Promise<ResolvedPlanFiles> {
  const resolution = await resolveProject({ cwd: ctx.io.cwd, host: hostOf(ctx) });
  const active = await resolveActivePlan(resolution, planName);
  const location = await stateLocation(resolution);
  const files: PlanFiles =
    location.kind === 'backend'
      ? new BackendPlanFiles(location.backend, location.dir.child(active.plan), location.dir.child(active.progress))
      : new LocalPlanFiles(join(location.dir, active.plan), join(location.dir, active.progress), {
          lock: { lockRoot: defaultLockRoot(ctx.io.env) },
        });
  return { files, name: files.name, projectRoot: resolution.projectRoot };
}
