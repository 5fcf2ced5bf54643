import { join } from 'node:path';
import { readActivePlanMarker } from '../state/active-plan.js';
import { planPair } from '../state/plan-names.js';
import { parsePlan } from '../harness/plan/plan-document.js';
import { planTitle } from '../harness/plan/plan-title.js';
import { planNameOf } from '../harness/reconciler/backend-plan-files.js';
import { summarizePlan, type PlanSummary } from '../harness/reconciler/plan-view.js';
import { activePlanOf, homeDir, homeLocator, homePlanFiles, readHomeFile, type PlanHome } from './plan-home.js';
import type { WorkspaceContext } from './context.js';

/** One plan of a project, as every front end lists it. */
export interface ListedPlan {
  /** `PLAN` for the singleton `PLAN.md`, else the `<name>` of `PLAN-<name>.md`: what `--plan` and `switchPlan` take. */
  readonly name: string;
  /** What people call it: the frontmatter `goal`, else the first heading, else `name` (`name` without `summaries`). */
  readonly title: string;
  /** Whether this is the plan the repository works on (`.harness/active-plan`, else PLAN.md). */
  readonly active: boolean;
  /** The plan and progress files, as paths to show (absolute when the store is on this machine). */
  readonly planFile: string;
  readonly progressFile: string;
  /** Their store keys, when the plans live in the store (a front end inside the store opens them by key). */
  readonly planKey?: string;
  readonly progressKey?: string;
  /** With `summaries`: the frontmatter `goal`, when there is one. */
  readonly goal?: string;
  /** With `summaries`: the frontmatter `status`, else `open`. */
  readonly status?: string;
  /** With `summaries`: `done`, `failed` or `cancelled` once the steps are settled, `''` while they can move. */
  readonly terminal?: PlanSummary['terminal'];
  /** With `summaries`: how many steps are in each effective status. */
  readonly counts?: PlanSummary['counts'];
}

/** A project's plans and which one is active. */
export interface PlanListing {
  /** The project's slug (undefined: a repository without one keeps its plans in `.harness/`). */
  readonly project: string | undefined;
  /** Where the plan files live (the store's `<project>/_harness/` or the repo's `.harness/`), as a path to show. */
  readonly stateDir: string;
  /** The state directory's store key, when the plans live in the store (not in the repo's `.harness/`). */
  readonly stateKey?: string;
  /** The repository whose `.harness/active-plan` says which plan is active; undefined when listed by slug (no marker to read). */
  readonly repository: string | undefined;
  /** PLAN.md first, then PLAN-*.md in code-point order; archives, temps and sync conflict copies never listed. */
  readonly plans: readonly ListedPlan[];
  /**
   * The active pair (the `.harness/active-plan` marker, else PLAN.md), listed or not yet written.
   * Undefined when the marker does not resolve (`bindingError`) or there is no repository.
   */
  readonly active?: { readonly name: string; readonly planFile: string; readonly progressFile: string };
  /** The raw `.harness/active-plan` text (trimmed) when there is a marker. */
  readonly binding?: string;
  /** Why the marker does not resolve (a dangling or unsafe binding), naming the fix. */
  readonly bindingError?: string;
}

/**
 * The plans of a home (see `PlanHome`). With `summaries` (the default), each plan is read for its
 * title, goal, status and step counts; without, only names and paths (a hook within its time budget).
 * A dangling `.harness/active-plan` is reported in `bindingError`, never replaced by PLAN.md. Read-only.
 */
export async function listHomePlans(
  ws: WorkspaceContext,
  home: PlanHome,
  options: { readonly summaries?: boolean } = {},
): Promise<PlanListing> {
  const stateDir = await homeDir(ws, home);
  const dir = await homeLocator(home);
  const [names, active] = await Promise.all([homePlanFiles(ws, home), activePlanOf(home)]);
  const activeName = active && 'name' in active ? active.name : undefined;
  const plans = await Promise.all(
    names.map(async (fileName): Promise<ListedPlan> => {
      const name = planNameOf(fileName);
      const pair = planPair(name === 'PLAN' ? undefined : name);
      const base = {
        name,
        title: name,
        active: name === activeName,
        planFile: join(stateDir, pair.plan),
        progressFile: join(stateDir, pair.progress),
        ...(dir ? { planKey: dir.child(pair.plan).key, progressKey: dir.child(pair.progress).key } : {}),
      };
      if (options.summaries === false) return base;
      const [plan, progress] = await Promise.all([
        readHomeFile(ws, home, pair.plan),
        readHomeFile(ws, home, pair.progress),
      ]);
      const doc = parsePlan(plan);
      const summary = summarizePlan(doc, progress, base, { recent: 0 });
      return {
        ...base,
        title: planTitle(doc, name),
        ...(summary.goal !== undefined ? { goal: summary.goal } : {}),
        status: summary.status,
        terminal: summary.terminal,
        counts: summary.counts,
      };
    }),
  );
  const repository = home.kind === 'repository' ? home.resolution.projectRoot : undefined;
  const project = home.kind === 'repository' ? home.resolution.slug : home.slug;
  const marker =
    repository === undefined ? undefined : (await readActivePlanMarker(repository).catch(() => undefined))?.trim();
  const binding = marker ? { binding: marker } : {};
  const base = { project, stateDir, ...(dir ? { stateKey: dir.key } : {}), repository, plans, ...binding };
  if (active === undefined) return base;
  if ('error' in active) return { ...base, bindingError: active.error };
  const pair = {
    name: active.name,
    planFile: join(stateDir, active.plan),
    progressFile: join(stateDir, active.progress),
  };
  return { ...base, active: pair };
}
