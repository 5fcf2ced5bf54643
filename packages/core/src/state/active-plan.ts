import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { ActivePlanError, UnsafePlanNameError } from './errors.js';
import { normalizePlanName, planPair, SINGLETON_PAIR, type PlanPair } from './plan-names.js';
import { localHarnessDir } from './state-location.js';
import { readStateFile } from './state-files.js';

/** The active plan pair and what bound it. */
export interface ActivePlan extends PlanPair {
  readonly source: 'explicit' | 'marker' | 'default';
}

/** The raw `.harness/active-plan` marker text, or undefined when there is no marker. Always read from the repo. */
export async function readActivePlanMarker(projectRoot: string): Promise<string | undefined> {
  try {
    return await readFile(join(localHarnessDir(projectRoot), 'active-plan'), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ActivePlanError(
      `.harness/active-plan in ${projectRoot} could not be read (${(error as Error).message}); fix its permissions or remove it`,
      error,
    );
  }
}

/**
 * The plan pair to work on. An explicit `planArg` wins (even empty = singleton), with no existence
 * check; an unsafe name throws `UnsafePlanNameError`. Else the repo's `.harness/active-plan` marker,
 * which must name a safe, non-singleton plan whose PLAN file (read through the routed state location)
 * is non-empty — otherwise `ActivePlanError`, never a fall-back to `PLAN.md`. Else `PLAN.md`/`progress.md`.
 * Read-only.
 */
export async function resolveActivePlan(resolution: ProjectResolution, planArg?: string): Promise<ActivePlan> {
  if (planArg !== undefined) return { ...planPair(normalizePlanName(planArg)), source: 'explicit' };
  const marker = await readActivePlanMarker(resolution.projectRoot);
  if (marker === undefined) return { ...SINGLETON_PAIR, source: 'default' };
  const where = `.harness/active-plan in ${resolution.projectRoot}`;
  const name = normalizePlanName(marker);
  if (name === undefined) {
    throw new ActivePlanError(
      `${where} is blank or names no usable plan (${JSON.stringify(marker.trim())}); refusing to fall back to PLAN.md. ` +
        'Write a plan name into it (e.g. my-feature for PLAN-my-feature.md) or delete the marker to use PLAN.md.',
    );
  }
  let pair: PlanPair;
  try {
    pair = planPair(name);
  } catch (error) {
    if (!(error instanceof UnsafePlanNameError)) throw error;
    throw new ActivePlanError(
      `${where} names an unsafe plan ${JSON.stringify(name)} (not a single path component); refusing to fall back to PLAN.md. Fix or delete the marker.`,
      error,
    );
  }
  const text = await readStateFile(resolution, pair.plan);
  if (text.trim() === '') {
    throw new ActivePlanError(
      `${where} binds plan ${JSON.stringify(name)}, but ${pair.plan} is missing or empty (a dangling binding); refusing to fall back to PLAN.md. ` +
        `Create ${pair.plan}, point the marker at an existing plan (agentm plans lists them), or delete the marker.`,
    );
  }
  return { ...pair, source: 'marker' };
}
