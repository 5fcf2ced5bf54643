import type { Workspace } from '@agentm/core';
import type { PlanBoard } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * The plans of the current project (the active file's, else the "Default project" setting), as the
 * workspace lists them for a project reached by its slug (`listPlans({ project })`: its `_harness/` in
 * the store, PLAN.md first, then PLAN-<name>.md, each titled by its goal, with its status and counts;
 * archives, temps and sync conflict copies never listed). Obsidian has no repository, so no plan is
 * marked active (`.harness/active-plan` lives in the repository).
 */
export async function planBoard(deps: ServiceDeps, ws: Workspace): Promise<PlanBoard> {
  const project = await currentProject(deps, ws);
  if (!project)
    return {
      project: undefined,
      folder: undefined,
      plans: [],
      reason:
        'no current project: open a note inside a project folder (e.g. desk/projects/<slug>/…), or set a default project in Settings → AgentM.',
    };
  const { backend } = deps.context();
  const listing = await ws.listPlans({ project: project.slug });
  const folder = backend.pathOf(backend.resolve(listing.stateKey!));
  if (listing.plans.length > 0) return { project: project.slug, folder, plans: listing.plans };
  return {
    project: project.slug,
    folder,
    plans: [],
    reason: `project ${project.slug} has no plan: no PLAN.md or PLAN-*.md in ${folder}.`,
  };
}
