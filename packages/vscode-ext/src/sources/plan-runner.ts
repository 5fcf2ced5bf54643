import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import { parsePlan, parseProgress } from '@agentm/core';
import {
  planTitle,
  PlanNotFoundError,
  RetryRefusedError,
  UnknownStepError,
  type ApprovalAsker,
  type RunStepEvent,
} from '@agentm/core/harness';
import { NothingToDoError } from '../errors';
import { providerApiKey } from '../secrets';
import { askInModal } from './command-approval';
import { lastFailures } from './plan-facts';
import { TrackedChatProvider } from './providers';
import type { ProjectTracker } from './project-tracker';
import { RunLog } from './run-log';
import type { PlanRunner, RunOutcome, WorkProgress } from './types';

/** The person retrying a step or updating it from the sidebar, as the progress log names its actor. */
export const PERSON = (() => {
  try {
    return `${userInfo().username} (VS Code)`;
  } catch {
    return 'VS Code';
  }
})();

/**
 * Runs plans through the workspace's harness in this window, exactly like `agentm run`: the same
 * pre-flight (a step that needs a model, with none available, refuses the run before anything is
 * claimed; so does a program not found) and the same consent order (every command of the plan asked
 * about in a modal before any step is claimed), then `cmd::` steps as commands and the others through
 * the window's chat model. Each command's output streams into the "AgentM run" output channel as it
 * comes. The run loop is told of file changes by the extension's own watchers (no polling); cancelling
 * stops the reconciler, which releases running steps for a retry.
 */
export class CorePlanRunner implements PlanRunner, vscode.Disposable {
  readonly #running = new Map<string, AbortController>();
  readonly #changed = new vscode.EventEmitter<void>();
  /** A run started or ended in this window. */
  readonly onDidChangeRunning = this.#changed.event;
  /** Who approves a command nobody approved yet (a modal; tests put an answer in its place). */
  askApproval: ApprovalAsker = askInModal;
  /** Where the run's log lines go besides the progress notification (the AgentM output channel). */
  onLog: ((plan: string, line: string) => void) | undefined;
  /** The live view of runs: each step's start, its command's output as it comes, its end. */
  readonly log = new RunLog();

  constructor(
    private readonly tracker: ProjectTracker,
    private readonly secrets?: vscode.SecretStorage,
  ) {}

  /** On deactivate (window closing): stop every run, so its running steps are released for a retry. */
  dispose(): void {
    for (const controller of this.#running.values()) controller.abort();
    this.#changed.dispose();
    this.log.dispose();
  }

  /** Names of the plans running in this window. */
  get running(): readonly string[] {
    return [...this.#running.keys()];
  }

  async run(plan: string, progress: WorkProgress, token: vscode.CancellationToken): Promise<RunOutcome> {
    if (this.#running.has(plan))
      throw new NothingToDoError(
        `plan '${plan}' is already running in this window; run "AgentM: Stop plan" to stop it`,
      );
    const { files, workspace, title } = await this.#files(plan);
    const controller = new AbortController();
    this.#running.set(plan, controller);
    this.#changed.fire();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    this.log.start(plan, title);
    try {
      const harness = await workspace.harness();
      // The model is chosen now, as `agentm run` does: none means a step that needs one refuses the run up front.
      const chosen = await workspace.chat();
      const provider = chosen && new TrackedChatProvider(chosen);
      const secrets = await this.#secrets();
      const result = await this.log.refusals(() =>
        harness.run({
          plan,
          provider,
          watch: (listener) => {
            const subscription = this.tracker.onDidChangeState(listener);
            return () => subscription.dispose();
          },
          // Every command (a step's, the model's run_command) asks in a modal until approved for this repo,
          // and runs without AgentM's keys (the window's secret one too) in its environment.
          consent: { ask: (prompt) => this.askApproval(prompt), secrets },
          signal: controller.signal,
          log: (line) => {
            progress.report({ message: line });
            this.onLog?.(plan, line);
          },
          onOutput: (_step, text) => this.log.output(text),
          onStep: (event: RunStepEvent) => this.log.step(event),
        }),
      );
      const doc = parsePlan((await files.readPlan())?.text ?? '');
      const done = doc.steps.filter((s) => s.stored === 'done').length;
      const counts = `${done}/${doc.steps.length} steps done`;
      const failedSteps = doc.steps.filter((s) => s.stored === 'failed');
      const reasons = failedSteps.length ? lastFailures(parseProgress(await files.readProgress())) : new Map();
      const failed = failedSteps.map((s) => ({ id: s.id, title: s.title, reason: reasons.get(s.id)?.reason }));
      // The model is the cause when it had trouble in this run and a step it would answer failed.
      const modelCause = provider?.trouble !== undefined && failedSteps.some((s) => s.cmd === undefined);
      const outcome = { title: result.title, failed, modelCause };
      this.log.end(result.stopped ? 'stopped' : result.terminal || 'not finished');
      if (result.stopped)
        return {
          summary: `stopped (${counts}; running steps were released for a retry)`,
          ended: 'stopped',
          ...outcome,
        };
      if (result.terminal === 'failed') {
        const ids = failed.map((s) => s.id);
        const hint = ids.length ? `; failed: ${ids.join(', ')} — run "AgentM: Retry failed step"` : '';
        return { summary: `failed (${counts}${hint})`, ended: 'failed', ...outcome };
      }
      if (result.terminal === 'done') return { summary: `done (${counts})`, ended: 'done', ...outcome };
      return { summary: `${result.terminal || 'not finished'} (${counts})`, ended: 'unfinished', ...outcome };
    } finally {
      cancelled.dispose();
      this.#running.delete(plan);
      this.#changed.fire();
    }
  }

  async stop(plan: string): Promise<void> {
    const controller = this.#running.get(plan);
    if (!controller) throw new NothingToDoError(`plan '${plan}' is not running in this window`);
    controller.abort();
  }

  /**
   * `failed → ready` with the attempt bumped, the transition logged, a failed plan reopened: core's
   * `harness.retry`, the function `agentm retry` calls too. A step that is not there or not failed is
   * something to tell the person, not an error of the extension.
   */
  async retry(plan: string, stepId: string): Promise<void> {
    const { workspace } = await this.#files(plan);
    try {
      await (await workspace.harness()).retry(plan, [stepId], { actor: PERSON, secrets: await this.#secrets() });
    } catch (error) {
      if (error instanceof RetryRefusedError || error instanceof UnknownStepError)
        throw new NothingToDoError(error.message);
      if (error instanceof PlanNotFoundError) throw new NothingToDoError(`plan '${plan}' has no PLAN file any more`);
      throw error;
    }
  }

  async #files(plan: string) {
    const ws = await this.tracker.current();
    if (!ws.project) throw new NothingToDoError(`cannot run a plan: ${ws.noProject}`);
    const { files } = await ws.workspace.planFiles(plan, { secrets: await this.#secrets() });
    const snap = await files.readPlan();
    if (!snap) throw new NothingToDoError(`plan '${plan}' has no PLAN file (${files.planLabel})`);
    return { files, workspace: ws.workspace, title: planTitle(parsePlan(snap.text), plan) };
  }

  /** The provider key kept in VS Code's secret storage, redacted like the environment's keys. */
  async #secrets(): Promise<string[]> {
    const key = this.secrets ? await providerApiKey(this.secrets) : undefined;
    return key ? [key] : [];
  }
}
