/**
 * The workspace's plan services that every front end renders: the listing, the active-plan switch and
 * step updates. A module of its own (imported by the workspace on first use) that loads the plan format
 * and the plan files, never the harness's executors, planner or models: the MCP server, the editors and
 * the CLI's `plans`/`use` verbs read and record plans; only `agentm run` runs them.
 */
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../write-protocol/atomic-write.js';
import { localHarnessDir } from '../state/state-location.js';
import { normalizePlanName, planPair } from '../state/plan-names.js';
import { PlanNotFoundError } from '../harness/errors.js';
import type { AppliedTransition } from '../harness/plan/plan-edit.js';
import { updateStep, type StepUpdate } from '../harness/reconciler/step-update.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import type { WorkspaceContext } from './context.js';
import { homePlanFilesFor, NoPlanHomeError, planHome } from './plan-home.js';
import { listHomePlans } from './plan-listing.js';

/** A step update as a front end asks for it: which plan, which step, what happened. */
export interface WorkspaceStepUpdate extends StepUpdate {
  /** The plan (`PLAN` or `<name>` of `PLAN-<name>.md`); default: the active plan of the repository, else PLAN.md. */
  readonly plan?: string | undefined;
  /** Another project's plans, by slug (default: the repository's project). */
  readonly project?: string | undefined;
}

/** What a step update did. */
export interface StepUpdateOutcome {
  /** The plan's name (`PLAN` for PLAN.md). */
  readonly plan: string;
  readonly step: string;
  /** The step's status before the update (effective: `ready` for a pending step whose dependencies are done). */
  readonly from: string;
  /** Its status after. */
  readonly status: string;
  /** The transitions written, in order (empty for a note). */
  readonly applied: readonly AppliedTransition[];
  /** The plan's status when this update settled it (`done`, `failed`, `cancelled`). */
  readonly planStatus?: string;
  /** The plan's files (the progress log holds the update's entries). */
  readonly files: PlanFiles;
}

/** What `switchPlan` did. */
export interface PlanSwitch {
  /** The plan now active (`PLAN` for PLAN.md). */
  readonly name: string;
  /** The plan active before, when the marker resolved. */
  readonly previous: string | undefined;
  /** The marker file (`<repo>/.harness/active-plan`), written — or removed, for PLAN. */
  readonly marker: string;
}

export { homePlanFilesFor, listHomePlans, planHome };

/**
 * Makes plan `name` the one the repository works on: writes `<repo>/.harness/active-plan` (one line, the
 * plan's name; an atomic write), the marker `agentm run`, the state verbs, the hooks and agentm read —
 * or removes it for the singleton `PLAN`. Refuses a plan that is not listed (`PlanNotFoundError` naming
 * the plans there are) and a workspace without a repository (`NoPlanHomeError`).
 */
export async function switchPlan(ws: WorkspaceContext, name: string): Promise<PlanSwitch> {
  const home = await planHome(ws);
  if (home.kind !== 'repository') throw new NoPlanHomeError();
  const wanted = normalizePlanName(name);
  const file = planPair(wanted).plan;
  const listing = await listHomePlans(ws, home, { summaries: false });
  const target = listing.plans.find((p) => p.name === (wanted ?? 'PLAN'));
  if (!target)
    throw new PlanNotFoundError(
      `${join(listing.stateDir, file)} (the plans here: ${listing.plans.map((p) => p.name).join(', ') || 'none yet'})`,
    );
  const dir = localHarnessDir(home.resolution.projectRoot);
  const marker = join(dir, 'active-plan');
  if (wanted === undefined)
    await unlink(marker).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
  else {
    await mkdir(dir, { recursive: true });
    await atomicWrite(marker, `${wanted}\n`);
  }
  return { name: target.name, previous: listing.active?.name, marker };
}

/**
 * Records progress on one step (core's `updateStep`): one compare-and-swap commit under the plan's
 * lock, the transition checked by the step state machine, the note or reason logged. `start` claims a
 * ready step for `actor`; `done`/`failed` finish a running one (a ready one is started first, both moves
 * logged); `note` only logs. Refused, with the plan untouched: a step `agentm run` has claimed
 * (`pid@host`), a move to the status the step already has, anything the state machine forbids
 * (`InvalidTransitionError`), an unknown step (`UnknownStepError`), no plan file (`PlanNotFoundError`),
 * `failed`/`note` without text (`StepUpdateArgumentError`). No update ever runs a command.
 */
export async function updatePlanStep(
  ws: WorkspaceContext,
  update: WorkspaceStepUpdate,
  options: { readonly actor: string; readonly secrets?: readonly string[]; readonly now?: () => number },
): Promise<StepUpdateOutcome> {
  const home = await planHome(ws, update.project);
  const { files, name } = await homePlanFilesFor(
    ws,
    home,
    update.plan,
    options.secrets ? { secrets: options.secrets } : {},
  );
  const result = await updateStep(
    files,
    options.actor,
    { step: update.step, action: update.action, text: update.text },
    options.now,
  );
  return {
    plan: name,
    step: update.step,
    from: result.applied[0]?.from ?? result.status,
    status: result.status,
    applied: result.applied,
    ...(result.planStatus ? { planStatus: result.planStatus } : {}),
    files,
  };
}
