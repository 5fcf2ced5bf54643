import type { Workspace } from '@agentm/core';
import type { PlanLookup } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { planBoard } from './plan-board.js';

/**
 * The current project's plan files for "Open the active plan" (the plan view's listing: `planBoard`).
 * Which one is active is recorded in the repository's `.harness/active-plan`, which Obsidian cannot see:
 * with several plans the caller offers a picker.
 */
export async function activePlanFiles(deps: ServiceDeps, ws: Workspace): Promise<PlanLookup> {
  const { backend } = deps.context();
  const board = await planBoard(deps, ws);
  const plans = board.plans.map((plan) => ({
    name: plan.name,
    title: plan.title,
    path: backend.pathOf(backend.resolve(plan.planKey!)),
  }));
  return { project: board.project, plans, ...(board.reason !== undefined ? { reason: board.reason } : {}) };
}
