/**
 * The workspace's harness services: plan files routed for its project, the roster, the dispatcher, runs
 * and planning. A module of its own, imported by `Workspace.harness()` on first use, so contexts that
 * never run a plan (a recall hook, the Obsidian plugin) never load the harness.
 */
import type { ChatProvider } from '../providers/chat.js';
import { harnessDispatcher } from '../harness/executors/harness-dispatcher.js';
import { ConcurrentModificationError } from '../protocol/errors.js';
import { HarnessError, PlanExistsError } from '../harness/errors.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import { planGoal, writePlanDraft, type PlanDraft } from '../harness/planner/planner.js';
import { Reconciler } from '../harness/reconciler/reconciler.js';
import { planFilesFor, type ResolvedPlanFiles } from '../harness/reconciler/resolve-plan-files.js';
import { runReconciler, type RunResult } from '../harness/reconciler/run-loop.js';
import type { StepDispatcher } from '../harness/reconciler/dispatcher.js';
import { rolesFromConfig } from '../harness/tools/roles-config.js';
import type { Role } from '../harness/tools/roles.js';
import type { WorkspaceContext } from './context.js';

export interface RunPlanOptions {
  /** The plan (`PLAN-<name>.md`); default: the active binding, else PLAN.md. */
  readonly plan?: string | undefined;
  /** The model of LLM steps (default: the workspace's chat model; none → LLM steps fail naming the settings). */
  readonly provider?: ChatProvider | undefined;
  /** Replaces how the plan files are watched (an editor's own watchers instead of the files' polling). */
  readonly watch?: PlanFiles['watch'];
  readonly once?: boolean;
  readonly signal?: AbortSignal;
  readonly maxConcurrent?: number | undefined;
  readonly tickIntervalMs?: number | undefined;
  readonly log?: (line: string) => void;
}

/** A run's outcome and the plan it ran. */
export interface PlanRun extends RunResult {
  readonly name: string;
  readonly files: PlanFiles;
}

export class HarnessServices {
  constructor(private readonly ws: WorkspaceContext) {}

  /**
   * The plan files of the workspace's project, routed like the state verbs (DESIGN §7): the explicit
   * name, else the `.harness/active-plan` marker (a dangling one is `ActivePlanError`), else PLAN.md; in
   * the vault's `<project>/_harness/` when a synced store holds state, else the repo's `.harness/`.
   */
  async planFiles(name?: string): Promise<ResolvedPlanFiles> {
    const project = await this.ws.project();
    if (!project)
      throw new HarnessError('no repository: a plan belongs to a repository; open the workspace with its projectRoot', {
        code: 'ENOREPOSITORY',
      });
    return planFilesFor(project, name, { lockRoot: this.ws.lockRoot });
  }

  /** The roster (config `harness.roles`, else the seed roles); a malformed one is `RolesConfigError`. */
  roles(): readonly Role[] {
    return rolesFromConfig(this.ws.config);
  }

  /** The dispatcher `agentm run` uses: `cmd::` steps as commands in the repository, other steps through `provider`. */
  dispatcher(projectRoot: string, provider: ChatProvider | undefined): StepDispatcher {
    return harnessDispatcher({
      projectRoot,
      provider,
      env: { ...(this.ws.host.env as NodeJS.ProcessEnv) },
      llm: { roles: this.roles() },
    });
  }

  /** Runs a plan until it is done, failed or stopped (`signal`); running steps are released on a stop. */
  async run(options: RunPlanOptions = {}): Promise<PlanRun> {
    const { files, name, projectRoot } = await this.planFiles(options.plan);
    const provider = options.provider ?? (await this.ws.chat());
    const watched: PlanFiles = options.watch ? withWatch(files, options.watch) : files;
    const reconciler = new Reconciler({
      files: watched,
      dispatcher: this.dispatcher(projectRoot, provider),
      maxConcurrent: options.maxConcurrent,
      ...(options.log ? { log: options.log } : {}),
    });
    const result = await runReconciler(reconciler, {
      ...(options.once !== undefined ? { once: options.once } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.tickIntervalMs !== undefined ? { tickIntervalMs: options.tickIntervalMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    return { ...result, name, files };
  }

  /**
   * Turns a goal into a new `PLAN-<name>.md` (through the chat model when there is one; else one step)
   * and writes it only where none exists (`PlanExistsError` otherwise).
   */
  async plan(goal: string, name: string): Promise<{ readonly files: PlanFiles; readonly draft: PlanDraft }> {
    const provider = await this.ws.chat();
    const roles = this.roles();
    const { files } = await this.planFiles(name);
    const draft = await planGoal(goal, files.name, { provider, roles });
    try {
      await writePlanDraft(files, draft);
    } catch (error) {
      if (error instanceof ConcurrentModificationError) throw new PlanExistsError(files.planLabel);
      throw error;
    }
    return { files, draft };
  }
}

function withWatch(files: PlanFiles, watch: PlanFiles['watch']): PlanFiles {
  return {
    name: files.name,
    planLabel: files.planLabel,
    progressLabel: files.progressLabel,
    readPlan: () => files.readPlan(),
    readProgress: () => files.readProgress(),
    commit: (change) => files.commit(change),
    ...(watch ? { watch } : {}),
  };
}
