import { selectPlanFiles, type Workspace } from '@agentm/core';
import type { PlanLookup } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * The plan files of the current project (the active file's, else the "Default project" setting), from
 * its `_harness/` folder by core's rules (`selectPlanFiles`: `PLAN.md` first, then `PLAN-*.md`; no
 * archives, temps or sync conflict copies). Which one is active is recorded in the repository's
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
  const dir = backend.resolve(project.dir, '_harness');
  const children = await backend.list(dir);
  const folders = new Set<string>();
  for (const child of children) if ((await backend.info(child)).isDir) folders.add(child.name);
  const names = selectPlanFiles(
    children.map((c) => c.name),
    (name) => !folders.has(name),
  );
  const plans = names.map((name) => backend.pathOf(dir.child(name)));
  if (plans.length > 0) return { project: project.slug, plans };
  return {
    project: project.slug,
    plans,
    reason: `project ${project.slug} has no plan: no PLAN.md or PLAN-*.md in ${backend.pathOf(dir)}.`,
  };
}
