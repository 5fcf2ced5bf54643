import type { ProjectResolution } from '../routing/resolve-project.js';
import { planFilesFor, type ResolvedPlanFiles } from '../harness/reconciler/resolve-plan-files.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * The plan files of the workspace's project, routed as every writer routes them (the explicit name, else
 * `.harness/active-plan`, else PLAN.md; the vault's `_harness/` or the repo's `.harness/`, under the
 * lock and compare-and-swap). What `Workspace.harness().planFiles` gives, without loading the harness's
 * executors and planner: agents only read plans and record steps, they never run them.
 */
export function agentPlanFiles(ws: Workspace, project: ProjectResolution, plan?: string): Promise<ResolvedPlanFiles> {
  return planFilesFor(project, plan, { lockRoot: ws.lockRoot });
}
