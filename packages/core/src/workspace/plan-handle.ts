/**
 * One plan of a workspace as a live view shows and steers it (the Obsidian plan view; any front end
 * that draws a plan and lets a person act on it): what it says now with the hash it was read at, and
 * every action through core's transitions, held to that hash. A module of its own, loaded on first use.
 */
import { parseProgress } from '../harness/observations/progress-format.js';
import { parsePlan } from '../harness/plan/plan-document.js';
import { planTitle } from '../harness/plan/plan-title.js';
import { expectPlan } from '../harness/reconciler/plan-guard.js';
import { planObservationId, type PlanFiles } from '../harness/reconciler/plan-files.js';
import type { MutationResult } from '../harness/reconciler/plan-mutation.js';
import { cancelStep, setPlanStatus } from '../harness/reconciler/plan-steering.js';
import { summarizePlan, type PlanSummary } from '../harness/reconciler/plan-view.js';
import { retrySteps, type RetryResult } from '../harness/reconciler/retry-steps.js';
import { updateStep, type StepUpdate, type StepUpdateResult } from '../harness/reconciler/step-update.js';
import { explainFailure, type PlanFailure } from '../harness/trace/failures.js';
import type { WorkspaceContext } from './context.js';
import { homePlanFilesFor, planHome } from './plan-home.js';

/** A plan as it was read: what a view draws, and the hash every action is held to. */
export interface PlanDetail {
  /** `PLAN` for PLAN.md, else the `<name>` of `PLAN-<name>.md`. */
  readonly name: string;
  /** Its goal, else its first heading, else its name. */
  readonly title: string;
  /** The plan file's content hash when it was read (`expectHash` of the actions). */
  readonly hash: string;
  /** Its steps (effective status, dependencies, attempt, latest entry), status, counts, newest entries, problems. */
  readonly summary: PlanSummary;
  /** Why each failed step failed (the log's last error for it) and what waits behind them. */
  readonly failures: PlanFailure;
}

/** Who acts, and on which version of the plan. */
export interface SteerOptions {
  /** Who is named in the progress log (e.g. `ann (Obsidian)`). */
  readonly actor: string;
  /** The hash of the plan the person saw: a plan changed since is refused (`StalePlanError`), never written over. */
  readonly expectHash: string;
  readonly now?: () => number;
}

/**
 * One plan's files and the actions on it. Every action is one compare-and-swap commit under the plan's
 * lock (the backend's), checked by the step state machine, logged in the progress file, and refused with
 * `StalePlanError` when the plan is no longer what `expectHash` names (an agent wrote it meanwhile).
 */
export class PlanHandle {
  constructor(
    readonly name: string,
    readonly files: PlanFiles,
  ) {}

  /** The plan now, with its `recent` newest progress entries (default 10); undefined when there is no plan file. */
  async read(options: { readonly recent?: number } = {}): Promise<PlanDetail | undefined> {
    const [snap, progress] = await Promise.all([this.files.readPlan(), this.files.readProgress()]);
    if (!snap) return undefined;
    const doc = parsePlan(snap.text);
    const where = { name: this.name, planFile: this.files.planLabel, progressFile: this.files.progressLabel };
    return {
      name: this.name,
      title: planTitle(doc, this.name),
      hash: snap.hash,
      summary: summarizePlan(doc, progress, where, options),
      failures: explainFailure(doc, parseProgress(progress), planObservationId(this.files)),
    };
  }

  /** Starts, finishes (`done`), fails (with its reason) or notes a step: core's `updateStep`. */
  update(update: StepUpdate, options: SteerOptions): Promise<StepUpdateResult> {
    return updateStep(this.#held(options), options.actor, update, options.now);
  }

  /** Puts failed steps back in the queue (attempt + 1), reopening a failed plan: core's `retrySteps`. */
  retry(steps: readonly string[], options: SteerOptions): Promise<RetryResult> {
    return retrySteps(this.#held(options), options.actor, steps);
  }

  /** Cancels one step (see `cancelStep`). */
  cancelStep(step: string, reason: string | undefined, options: SteerOptions): Promise<MutationResult> {
    return cancelStep(this.#held(options), options.actor, step, reason, options.now);
  }

  /** Reopens a closed plan, or cancels an open one (see `setPlanStatus`). */
  setStatus(to: 'open' | 'cancelled', reason: string, options: SteerOptions): Promise<MutationResult> {
    return setPlanStatus(this.#held(options), options.actor, to, reason, options.now);
  }

  #held(options: SteerOptions): PlanFiles {
    return expectPlan(this.files, options.expectHash);
  }
}

/**
 * Plan `name` (default: the active one, else PLAN.md) of the workspace's repository, or of `project`'s
 * folder in the store (Obsidian's vault), routed and redacted as every writer's (`planFiles`).
 */
export async function openPlan(
  ws: WorkspaceContext,
  name: string | undefined,
  options: { readonly project?: string; readonly secrets?: readonly string[] } = {},
): Promise<PlanHandle> {
  const home = await planHome(ws, options.project);
  const { files } = await homePlanFilesFor(ws, home, name, options.secrets ? { secrets: options.secrets } : {});
  return new PlanHandle(files.name, files);
}
