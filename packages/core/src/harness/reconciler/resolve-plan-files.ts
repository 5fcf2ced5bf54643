import { join } from 'node:path';
import type { HostEnv } from '../../config/host.js';
import { defaultLockRoot } from '../../write-protocol/vault-lock.js';
import { resolveProject, type ProjectResolution } from '../../routing/resolve-project.js';
import { resolveActivePlan } from '../../state/active-plan.js';
import { stateLocation } from '../../state/state-location.js';
import { secretValues } from '../../text/redact.js';
import { BackendPlanFiles } from './backend-plan-files.js';
import { LocalPlanFiles } from './local-plan-files.js';
import type { PlanFiles } from './plan-files.js';
import { redactingPlanFiles } from './redacting-plan-files.js';

export interface ResolvedPlanFiles {
  readonly files: PlanFiles;
  /** `PLAN` for the singleton pair, else the plan's name. */
  readonly name: string;
  /** Where shell steps run and LLM tools may read and write. */
  readonly projectRoot: string;
}

/**
 * The plan files of a resolved project, routed exactly like the state verbs (DESIGN §7): the plan is
 * the explicit name, else the repo's `.harness/active-plan` marker (a dangling or unsafe marker is an
 * `ActivePlanError`, never a fall-back to PLAN.md), else the singleton pair; the files live in the
 * vault's `<project>/_harness/` when a synced backend is selected (written through its lock and CAS),
 * else in the repo's `.harness/` (under the lock keyed on that directory, in `lockRoot`). Every
 * observation is redacted on its way to the progress log: the secrets of the host's environment and
 * config, `secrets` (keys a front end holds elsewhere) and anything shaped like a key.
 */
export async function planFilesFor(
  resolution: ProjectResolution,
  planName?: string,
  options: { readonly lockRoot?: string; readonly secrets?: readonly string[] } = {},
): Promise<ResolvedPlanFiles> {
  const active = await resolveActivePlan(resolution, planName);
  const location = await stateLocation(resolution);
  const files: PlanFiles =
    location.kind === 'backend'
      ? new BackendPlanFiles(location.backend, location.dir.child(active.plan), location.dir.child(active.progress))
      : new LocalPlanFiles(join(location.dir, active.plan), join(location.dir, active.progress), {
          lock: {
            lockRoot:
              options.lockRoot ?? defaultLockRoot(resolution.host.env as NodeJS.ProcessEnv, resolution.host.home),
          },
        });
  const secrets = [
    ...secretValues(resolution.host.env, resolution.selection?.choice.config ?? {}),
    ...(options.secrets ?? []),
  ];
  return { files: redactingPlanFiles(files, secrets), name: files.name, projectRoot: resolution.projectRoot };
}

/**
 * Where a front end finds a plan and its progress log: the project is resolved from `cwd` (selection
 * errors propagate), then `planFilesFor`.
 */
export async function resolvePlanFiles(options: {
  readonly cwd: string;
  readonly host: HostEnv;
  readonly planName?: string | undefined;
  /** More secrets to keep out of the progress log (see `planFilesFor`). */
  readonly secrets?: readonly string[];
}): Promise<ResolvedPlanFiles> {
  const resolution = await resolveProject({ cwd: options.cwd, host: options.host });
  return planFilesFor(resolution, options.planName, options.secrets ? { secrets: options.secrets } : {});
}
