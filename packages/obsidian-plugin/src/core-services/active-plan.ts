import type { Workspace } from '@agentm/core';
import type { PlanLookup } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * The plans of the current project (the active file's, else the "Default project" setting), as the
 * workspace lists them for a project reached by its slug (`listPlans({ project })`: its `_harness/` in
 * the store, PLAN.md first, then PLAN-<name>.md, each titled by its goal; archives, temps and sync
 * conflict copies never listed). Which one is active is recorded in the repository's
 * `.harness/active-plan`, which Obsidian cannot see: with several plans the caller offers a picker.
 */
export async function activePlanFiles(deps: ServiceDeps, ws: Workspace): Promise<PlanLookup> {
  const project = await currentProject(deps, ws);
  if (!project) {
    return {
      project: undefined,
      plans: [],
      reason:
        'no current project: open a note inside a project folder (e.g. desk/projects/<slug>/…), or set a default project in Settings → AgentM.',
    };
  }
  const { backend } = deps.context();
  const vaultPath = (key: string) => backend.pathOf(backend.resolve(key));
  const listing = await ws.listPlans({ project: project.slug });
  const plans = listing.plans.map((plan) => ({ name: plan.name, title: plan.title, path: vaultPath(plan.planKey!) }));
  if (plans.length > 0) return { project: project.slug, plans };
  return {
    project: project.slug,
    plans,
    reason: `project ${project.slug} has no plan: no PLAN.md or PLAN-*.md in ${vaultPath(listing.stateKey!)}.`,
  };
}
