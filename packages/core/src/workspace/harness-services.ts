/**
 * The workspace's harness services: plan files routed for its project, the roster, the dispatcher, runs
 * and planning. A module of its own, imported by `Workspace.harness()` on first use, so contexts that
 * never run a plan (a recall hook, the Obsidian plugin) never load the harness.
 */
import type { ChatProvider } from '../providers/chat.js';
import { harnessDispatcher } from '../harness/executors/harness-dispatcher.js';
import { ConcurrentModificationError } from '../write-protocol/errors.js';
import { PlanExistsError } from '../harness/errors.js';
import type { PlanFiles } from '../harness/reconciler/plan-files.js';
import { planGoal, writePlanDraft, type PlanDraft } from '../harness/planner/planner.js';
import { Reconciler } from '../harness/reconciler/reconciler.js';
import type { ResolvedPlanFiles } from '../harness/reconciler/resolve-plan-files.js';
import { homePlanFilesFor, NoPlanHomeError, planHome } from './plan-home.js';
import { runReconciler, type RunResult } from '../harness/reconciler/run-loop.js';
import { retrySteps, type RetryResult } from '../harness/reconciler/retry-steps.js';
import type { StepDispatcher, StepOutcome } from '../harness/reconciler/dispatcher.js';
import { preflightPlan, PreflightError } from '../harness/executors/preflight.js';
import { parsePlan } from '../harness/plan/plan-document.js';
import { planTitle } from '../harness/plan/plan-title.js';
import { approvePlanCommands } from '../harness/command-exec/plan-commands.js';
import { rolesFromConfig } from '../harness/tools/roles-config.js';
import type { Role } from '../harness/tools/roles.js';
import type { ApprovalAsker } from '../harness/command-exec/command-gate.js';
import { commandPolicyFor, type CommandPolicy } from '../harness/command-exec/command-policy.js';
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
   * Check, before anything is claimed (and before the person is asked about commands), that every step
   * the run would dispatch can run: each `cmd::` program is found, a model is there for the others.
   * Default true; a refusal is `PreflightError` listing every problem, the plan untouched.
   */
  readonly preflight?: boolean;
  /** Each `cmd::` step's output as it comes, with the step's id (a live view; the log keeps the tail). */
  readonly onOutput?: (step: string, text: string, stream: 'stdout' | 'stderr') => void;
  /** A step starts or ends in this run (a live view; the progress log has the same, durably). */
  readonly onStep?: (event: RunStepEvent) => void;
}

/** A step starting or ending in a run, for a front end's live view. */
export type RunStepEvent =
  | {
      readonly kind: 'start';
      readonly step: string;
      readonly title: string;
      readonly attempt: number;
      readonly command?: string | undefined;
    }
  | {
      readonly kind: 'end';
      readonly step: string;
      readonly title: string;
      readonly attempt: number;
      readonly status: StepOutcome['status'];
      readonly summary: string;
      readonly durationMs: number;
    };

/** A run's outcome and the plan it ran. */
export interface PlanRun extends RunResult {
  readonly name: string;
  /** What people call the plan: its goal, else its first heading, else its name. */
  readonly title: string;
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
    const home = await planHome(this.ws);
    if (home.kind !== 'repository') throw new NoPlanHomeError();
    const resolved = await homePlanFilesFor(this.ws, home, name, options);
    return { ...resolved, projectRoot: home.resolution.projectRoot };
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

  /**
   * Runs a plan until it is done, failed or stopped (`signal`); running steps are released on a stop.
   * Before anything is claimed, in this order (every front end's order, `agentm run`'s): the pre-flight
   * (`PreflightError` listing each step that cannot run: a program not found, no model for a step that
   * needs one), then consent (`CommandsNotApprovedError` when a command of the plan is declined or no
   * one can be asked). Either refusal leaves the plan untouched.
   */
  async run(options: RunPlanOptions = {}): Promise<PlanRun> {
    const secrets = options.consent?.secrets;
    const { files, name, projectRoot } = await this.planFiles(options.plan, secrets ? { secrets } : {});
    const commands = this.commandPolicy(projectRoot, options.consent);
    const provider = options.provider ?? (await this.ws.chat());
    const snap = await files.readPlan();
    const doc = snap ? parsePlan(snap.text) : undefined;
    if (doc) {
      // A plan that cannot run at all (a cycle, duplicate ids) is the reconciler's to report, as before.
      const valid = !doc.problems.some((p) => p.severity === 'error');
      const problems =
        valid && options.preflight !== false
          ? preflightPlan(doc, { projectRoot, env: commands.env, hasModel: provider !== undefined })
          : [];
      if (problems.length > 0) throw new PreflightError(name, problems);
      await approvePlanCommands(name, doc, commands.gate);
    }
    const watched: PlanFiles = options.watch ? withWatch(files, options.watch) : files;
    const base = harnessDispatcher({
      projectRoot,
      provider,
      commands,
      llm: { roles: this.roles() },
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
    const reconciler = new Reconciler({
      files: watched,
      dispatcher: options.onStep ? reportingSteps(base, options.onStep) : base,
      maxConcurrent: options.maxConcurrent,
      ...(options.log ? { log: options.log } : {}),
    });
    const result = await runReconciler(reconciler, {
      ...(options.once !== undefined ? { once: options.once } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.tickIntervalMs !== undefined ? { tickIntervalMs: options.tickIntervalMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    return { ...result, name, title: doc ? planTitle(doc, name) : name, files };
  }

  /**
   * Puts failed steps of a plan back in the queue (see `retrySteps`): failed → ready with the attempt
   * bumped, the plan reopened, the transitions logged under `actor` (the person asking, e.g.
   * `ann (agentm retry)`). Every front end's retry is this one function.
   */
  async retry(
    plan: string | undefined,
    steps: readonly string[],
    options: { readonly actor: string; readonly secrets?: readonly string[] },
  ): Promise<RetryResult & { readonly files: PlanFiles }> {
    const { files } = await this.planFiles(plan, options.secrets ? { secrets: options.secrets } : {});
    return { ...(await retrySteps(files, options.actor, steps)), files };
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

/** `dispatcher` telling `onStep` when each step starts and ends (a throw is a failed end, then rethrown). */
function reportingSteps(dispatcher: StepDispatcher, onStep: (event: RunStepEvent) => void): StepDispatcher {
  return {
    async dispatch(request) {
      const { step, attempt } = request;
      const started = Date.now();
      onStep({ kind: 'start', step: step.id, title: step.title, attempt, command: step.cmd });
      const end = (status: StepOutcome['status'], summary: string) =>
        onStep({
          kind: 'end',
          step: step.id,
          title: step.title,
          attempt,
          status,
          summary,
          durationMs: Date.now() - started,
        });
      try {
        const outcome = await dispatcher.dispatch(request);
        end(outcome.status, outcome.summary);
        return outcome;
      } catch (error) {
        end('failed', (error as Error).message ?? String(error));
        throw error;
      }
    },
  };
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
