import { join } from 'node:path';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { ActivePlanError, UnsafePlanNameError } from '../state/errors.js';
import { readActivePlanMarker, resolveActivePlan } from '../state/active-plan.js';
import { listPlans } from '../state/list-plans.js';
import { planPair } from '../state/plan-names.js';
import { harnessStateDir, readStateFile } from '../state/state-files.js';
import { parsePlan } from '../harness/plan/plan-document.js';
import { planNameOf } from '../harness/reconciler/backend-plan-files.js';
import { summarizePlan, type PlanSummary } from '../harness/reconciler/plan-view.js';

/** One plan of a project: its name, its two files, and (when asked for) where it stands. */
export interface ListedPlan {
  /** `PLAN` for the singleton `PLAN.md`, else the `<name>` of `PLAN-<name>.md`. */
  readonly name: string;
  readonly planFile: string;
  readonly progressFile: string;
  readonly status?: string;
  readonly terminal?: PlanSummary['terminal'];
  readonly counts?: PlanSummary['counts'];
  readonly goal?: string;
}

/** A project's plans and which one this repository works on. */
export interface PlanListing {
  /** Where the plan files live (the vault's `_harness/` or the repo's `.harness/`), as a path to show. */
  readonly stateDir: string;
  readonly plans: readonly ListedPlan[];
  /** The active pair (explicit → `.harness/active-plan` → PLAN.md); undefined when the marker is dangling. */
  readonly active?: { readonly name: string; readonly planFile: string; readonly progressFile: string };
  /** The raw `.harness/active-plan` text (trimmed) when there is a marker. */
  readonly binding?: string;
  /** Why the marker does not resolve (a dangling or unsafe binding), naming the fix. */
  readonly bindingError?: string;
}

/**
 * The plans of a project's routed state directory (PLAN.md first, then PLAN-*.md; archives and sync
 * conflict copies left out) and the active pair. A dangling `.harness/active-plan` is reported in
 * `bindingError`, never replaced by PLAN.md. With `summaries`, each plan is read for its status and
 * step counts. Read-only.
 */
export async function listProjectPlans(
  resolution: ProjectResolution,
  options: { readonly summaries?: boolean } = {},
): Promise<PlanListing> {
  const stateDir = await harnessStateDir(resolution);
  const names = await listPlans(resolution);
  const plans = await Promise.all(
    names.map(async (fileName): Promise<ListedPlan> => {
      const name = planNameOf(fileName);
      const pair = planPair(name === 'PLAN' ? undefined : name);
      const base = { name, planFile: join(stateDir, pair.plan), progressFile: join(stateDir, pair.progress) };
      if (!options.summaries) return base;
      const [plan, progress] = await Promise.all([
        readStateFile(resolution, pair.plan),
        readStateFile(resolution, pair.progress),
      ]);
      const summary = summarizePlan(parsePlan(plan), progress, base, { recent: 0 });
      return {
        ...base,
        status: summary.status,
        terminal: summary.terminal,
        counts: summary.counts,
        ...(summary.goal !== undefined ? { goal: summary.goal } : {}),
      };
    }),
  );
  const marker = (await readActivePlanMarker(resolution.projectRoot).catch(() => undefined))?.trim();
  const binding = marker ? { binding: marker } : {};
  try {
    const active = await resolveActivePlan(resolution);
    const name = active.name ?? 'PLAN';
    return {
      stateDir,
      plans,
      active: { name, planFile: join(stateDir, active.plan), progressFile: join(stateDir, active.progress) },
      ...binding,
    };
  } catch (error) {
    if (!(error instanceof ActivePlanError) && !(error instanceof UnsafePlanNameError)) throw error;
    return { stateDir, plans, ...binding, bindingError: error.message };
  }
}
