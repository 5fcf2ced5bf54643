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
import type { ApprovalAsker } from '../harness/commands/command-gate.js';
import { commandPolicyFor, type CommandPolicy } from '../harness/commands/command-policy.js';
import { secretValues } from '../text/redact.js';
import type { WorkspaceContext } from './context.js';

/** How a front end lets commands run: who is asked about an unapproved one, and what it adds. */
export interface CommandConsent {
  /** Run every command of this run without asking (`agentm run --yes`). */
  readonly yes?: boolean | undefined;
  /** Who is asked about a command nobody approved yet (a terminal prompt, VS Code's modal); absent → refused. */
  readonly ask?: ApprovalAsker | undefined;
  /** Secrets the front end holds elsewhere (VS Code's secret storage), kept out of commands and logs. */
  readonly secrets?: readonly string[] | undefined;
}

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
  /** Consent for the run's commands (see `CommandConsent`); default: unapproved commands are refused. */
  readonly consent?: CommandConsent;
  /**
   * Called with the plan files and the command policy before anything is claimed (the CLI checks every
   * command the plan may run, asking or refusing up front); a throw ends the run with the plan untouched.
   */
  readonly beforeStart?: (files: PlanFiles, commands: CommandPolicy) => Promise<void>;
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
  async planFiles(name?: string, options: { readonly secrets?: readonly string[] } = {}): Promise<ResolvedPlanFiles> {
    const project = await this.ws.project();
    if (!project)
      throw new HarnessError('no repository: a plan belongs to a repository; open the workspace with its projectRoot', {
        code: 'ENOREPOSITORY',
      });
    // The workspace's config is the one its store was selected by (or the host's, for a store the host
    // brought): its provider keys are redacted from the progress log like the environment's.
    const secrets = [...secretValues(this.ws.host.env, this.ws.config), ...(options.secrets ?? [])];
    return planFilesFor(project, name, { lockRoot: this.ws.lockRoot, secrets });
  }

  /**
   * What every command of a run goes through (the trust model, README "Security"): the approval gate
   * (approvals outside the vault, keyed by command and repo), an environment without AgentM's secrets,
   * and the process-group records that let a later run end a crashed run's command. A malformed
   * `harness.env_allow` throws `EnvAllowConfigError`.
   */
  commandPolicy(projectRoot: string, consent: CommandConsent = {}): CommandPolicy {
    return commandPolicyFor({
      projectRoot,
      env: this.ws.host.env,
      home: this.ws.host.home,
      config: this.ws.config,
      ...(consent.yes ? { yes: true } : {}),
      ...(consent.ask ? { ask: consent.ask } : {}),
      ...(consent.secrets ? { secrets: consent.secrets } : {}),
    });
  }

  /** The roster (config `harness.roles`, else the seed roles); a malformed one is `RolesConfigError`. */
  roles(): readonly Role[] {
    return rolesFromConfig(this.ws.config);
  }

  /**
   * The dispatcher `agentm run` uses: `cmd::` steps as commands in the repository, other steps through
   * `provider`; every command (a step's, the model's `run_command`) through `commands`.
   */
  dispatcher(projectRoot: string, provider: ChatProvider | undefined, commands: CommandPolicy): StepDispatcher {
    return harnessDispatcher({ projectRoot, provider, commands, llm: { roles: this.roles() } });
  }

  /** Runs a plan until it is done, failed or stopped (`signal`); running steps are released on a stop. */
  async run(options: RunPlanOptions = {}): Promise<PlanRun> {
    const secrets = options.consent?.secrets;
    const { files, name, projectRoot } = await this.planFiles(options.plan, secrets ? { secrets } : {});
    const commands = this.commandPolicy(projectRoot, options.consent);
    await options.beforeStart?.(files, commands);
    const provider = options.provider ?? (await this.ws.chat());
    const watched: PlanFiles = options.watch ? withWatch(files, options.watch) : files;
    const reconciler = new Reconciler({
      files: watched,
      dispatcher: this.dispatcher(projectRoot, provider, commands),
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
  async plan(
    goal: string,
    name: string,
    options: { readonly provider?: ChatProvider | undefined } = {},
  ): Promise<{ readonly files: PlanFiles; readonly draft: PlanDraft }> {
    const provider = options.provider ?? (await this.ws.chat());
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
