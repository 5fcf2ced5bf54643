import type { Workspace } from '@agentm/core';
import type { PlanBoard } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * The current project's plans (the active file's project, else the default project), as the workspace
 * lists a project's `_harness/` folder in the store (`listPlans` by slug: PLAN.md then PLAN-*.md, titled,
 * with status and counts; no archives or conflict copies). Obsidian has no repository, so no plan is
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
        'No current project: open a note inside a project folder (e.g. desk/projects/<slug>/…), or set a default project in Settings → AgentM.',
    };
  const { backend } = deps.context();
  const folder = backend.pathOf((await ws.projectFolder(project.slug)).child('_harness'));
  const { plans } = await ws.listPlans({ project: project.slug });
  return {
    project: project.slug,
    folder,
    plans,
    ...(plans.length === 0
      ? { reason: `Project ${project.slug} has no plan yet (no PLAN.md or PLAN-*.md in ${folder}).` }
      : {}),
  };
}
