import type { WorkspaceContext } from './context.js';
import type { PlanHandle } from './plan-handle.js';

/**
 * Plan `name` (default: the active one, else PLAN.md) of the workspace's repository, or of `project`'s
 * `_harness/` folder in the store (Obsidian's vault), to read and steer: see `PlanHandle`. Loads the plan
 * modules on first use, so a context that never shows a plan never pays for them.
 */
export async function openPlan(
  ws: WorkspaceContext,
  name?: string,
  options: { readonly project?: string; readonly secrets?: readonly string[] } = {},
): Promise<PlanHandle> {
  const { openPlan: open } = await import('./plan-handle.js');
  return open(ws, name, options);
}
