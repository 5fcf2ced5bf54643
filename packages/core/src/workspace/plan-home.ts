import { join } from 'node:path';
import { NotFoundError } from '../seam/errors.js';
import type { Locator } from '../seam/locator.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { isSafeSegment } from '../routing/slug.js';
import { listPlans, listStorePlanFiles } from '../state/list-plans.js';
import { harnessStateDir, readStateFile } from '../state/state-files.js';
import { stateLocation } from '../state/state-location.js';
import { BackendPlanFiles } from '../harness/reconciler/backend-plan-files.js';
import { HarnessError } from '../harness/errors.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import { planFilesFor, type ResolvedPlanFiles } from '../harness/reconciler/resolve-plan-files.js';
import { redactingPlanFiles } from '../harness/reconciler/redacting-plan-files.js';
import { resolveActivePlan } from '../state/active-plan.js';
import { ActivePlanError, UnsafePlanNameError } from '../state/errors.js';
import { normalizePlanName, planPair } from '../state/plan-names.js';
import { secretValues } from '../text/redact.js';
import type { WorkspaceContext } from './context.js';

/**
 * Where one project's plans live, as a workspace reaches them:
 * - `repository`: the workspace's own repository — its state routed as every writer routes it (the
 *   vault's `<project>/_harness/` when a synced store holds state, else `.harness/`), and its
 *   `.harness/active-plan` marker saying which plan is active;
 * - `store`: a project's `_harness/` folder in the store, reached by its slug (Obsidian's vault, or
 *   another project than the repository's): there is no repository, so no marker and no active plan.
 */
export type PlanHome =
  | { readonly kind: 'repository'; readonly resolution: ProjectResolution }
  | { readonly kind: 'store'; readonly slug: string; readonly dir: Locator };

/** A front end asked about the plans of a workspace that has no repository and named no project. */
export class NoPlanHomeError extends HarnessError {
  constructor() {
    super(
      'no repository and no project: plans belong to a project; open the workspace with its projectRoot, or name the project (its slug)',
      { code: 'ENOREPOSITORY' },
    );
  }
}

/**
 * The plans' home for `project` (a slug): the repository's when `project` is absent or is the
 * repository's own project, else that project's folder in the store. Throws `NoPlanHomeError` when
 * neither exists, `HarnessError` for a slug that is not one safe folder name.
 */
export async function planHome(ws: WorkspaceContext, project?: string): Promise<PlanHome> {
  const resolution = await ws.project();
  if (resolution && (project === undefined || project === resolution.slug)) return { kind: 'repository', resolution };
  if (project === undefined) throw new NoPlanHomeError();
  if (!isSafeSegment(project) || project.startsWith('.'))
    throw new HarnessError(`project ${JSON.stringify(project)} is not a project slug (one plain folder name)`, {
      code: 'EPROJECTSLUG',
    });
  return { kind: 'store', slug: project, dir: (await ws.projectFolder(project)).child('_harness') };
}

/** The state directory of a home as a path to show (under the store's root when it has one). */
export async function homeDir(ws: WorkspaceContext, home: PlanHome): Promise<string> {
  if (home.kind === 'repository') return harnessStateDir(home.resolution);
  return ws.localRoot === undefined ? home.dir.key : join(ws.localRoot, ...home.dir.parts);
}

/** The state directory of a home as a store locator, when the plans live in the store (not in the repo's `.harness/`). */
export async function homeLocator(home: PlanHome): Promise<Locator | undefined> {
  if (home.kind === 'store') return home.dir;
  const location = await stateLocation(home.resolution);
  return location.kind === 'backend' ? location.dir : undefined;
}

/** The plan file names of a home: `PLAN.md` first, then `PLAN-*.md`; archives, temps and conflict copies left out. */
export async function homePlanFiles(ws: WorkspaceContext, home: PlanHome): Promise<string[]> {
  if (home.kind === 'repository') return listPlans(home.resolution);
  return listStorePlanFiles(ws.backend, home.dir);
}

/** A state file of a home (a plan or progress file name); `''` when absent. */
export async function readHomeFile(ws: WorkspaceContext, home: PlanHome, fileName: string): Promise<string> {
  if (home.kind === 'repository') return readStateFile(home.resolution, fileName);
  try {
    return await ws.backend.read(home.dir.child(fileName));
  } catch (error) {
    if (error instanceof NotFoundError) return '';
    throw error;
  }
}

/** A resolved plan of a home: its files and name, and the repository a run would work in (none for a store home). */
export interface HomePlanFiles extends Omit<ResolvedPlanFiles, 'projectRoot'> {
  readonly projectRoot: string | undefined;
}

/**
 * The plan files of plan `name` in a home, every observation redacted of the workspace's secrets (its
 * environment's and config's, and `secrets`): in the repository, routed by `planFilesFor` (the explicit
 * name, else `.harness/active-plan`, else PLAN.md; a dangling marker is `ActivePlanError`); in the
 * store, the named pair (PLAN.md without a name) through the store's lock and compare-and-swap.
 */
export async function homePlanFilesFor(
  ws: WorkspaceContext,
  home: PlanHome,
  name: string | undefined,
  options: { readonly secrets?: readonly string[] } = {},
): Promise<HomePlanFiles> {
  const secrets = [...secretValues(ws.host.env, ws.config), ...(options.secrets ?? [])];
  if (home.kind === 'repository') return planFilesFor(home.resolution, name, { lockRoot: ws.lockRoot, secrets });
  const pair = name === undefined ? planPair(undefined) : planPair(normalizePlanName(name));
  const files: PlanFiles = new BackendPlanFiles(ws.backend, home.dir.child(pair.plan), home.dir.child(pair.progress));
  return { files: redactingPlanFiles(files, secrets), name: files.name, projectRoot: undefined };
}

/** The active pair of a home, or why the marker does not resolve (naming the fix); undefined for a store home. */
export async function activePlanOf(
  home: PlanHome,
): Promise<
  { readonly plan: string; readonly progress: string; readonly name: string } | { readonly error: string } | undefined
> {
  if (home.kind === 'store') return undefined;
  try {
    const active = await resolveActivePlan(home.resolution);
    return { plan: active.plan, progress: active.progress, name: active.name ?? 'PLAN' };
  } catch (error) {
    if (error instanceof ActivePlanError || error instanceof UnsafePlanNameError) return { error: error.message };
    throw error;
  }
}
