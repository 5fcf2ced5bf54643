import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { type ListedPlan, type StepUpdateOutcome, type Workspace, type WorkspaceStepUpdate } from '@agentm/core';
import { ExtensionError, NothingToDoError } from '../errors';
import { planFacts } from './plan-facts';
import type { ProjectTracker } from './project-tracker';
import type { PlanSource, PlanState, PlanView } from './types';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** One listed plan with its steps and latest progress, read once through the workspace's routed plan files. */
async function planView(workspace: Workspace, listed: ListedPlan): Promise<PlanView> {
  const { files } = await workspace.planFiles(listed.name);
  const [plan, progress] = await Promise.all([files.readPlan(), files.readProgress()]);
  return {
    ...planFacts(listed.name, plan?.text ?? '', progress),
    active: listed.active,
    planUri: vscode.Uri.file(listed.planFile),
    progressUri: (await exists(listed.progressFile)) ? vscode.Uri.file(listed.progressFile) : undefined,
  };
}

/**
 * The project's plans as the workspace lists them (`listPlans`: PLAN.md then PLAN-<name>.md, titled by
 * their goal, the active one marked, conflict copies never listed; a dangling `.harness/active-plan` is
 * an error naming the fix), each with its steps and latest progress for the tree. Switching and step
 * updates are the workspace's too (`switchPlan`, `updateStep`): this file only renders and asks. Fires
 * `onDidChange` from the tracker's (debounced) watchers.
 */
export class CorePlanSource implements PlanSource {
  readonly onDidChange: vscode.Event<void>;

  constructor(private readonly tracker: ProjectTracker) {
    this.onDidChange = (listener, thisArg, disposables) => {
      const a = tracker.onDidChangeState(listener, thisArg);
      const b = tracker.onDidChangeWorkspace(listener, thisArg);
      const both = vscode.Disposable.from(a, b);
      disposables?.push(both);
      return both;
    };
  }

  async read(): Promise<PlanState> {
    const ws = await this.tracker.current();
    if (!ws.project) return { kind: 'noProject', reason: ws.noProject ?? 'no project' };
    const listing = await ws.workspace.listPlans();
    if (listing.bindingError) throw new ExtensionError(listing.bindingError);
    if (listing.plans.length === 0) return { kind: 'noPlan', project: ws.project.slug! };
    const plans = await Promise.all(listing.plans.map((listed) => planView(ws.workspace, listed)));
    return { kind: 'ready', project: ws.project.slug!, plans };
  }

  /** Makes `name` the active plan: the workspace writes `.harness/active-plan` (or removes it for PLAN). */
  async switchTo(name: string): Promise<void> {
    const ws = await this.tracker.current();
    if (!ws.project) throw new NothingToDoError(`cannot switch plans: ${ws.noProject}`);
    await ws.workspace.switchPlan(name);
  }

  /** A step update through the workspace (core's transitions, under the plan's lock and compare-and-swap). */
  async updateStep(
    update: WorkspaceStepUpdate,
    options: { readonly actor: string; readonly secrets?: readonly string[] },
  ): Promise<StepUpdateOutcome> {
    const ws = await this.tracker.current();
    if (!ws.project) throw new NothingToDoError(`cannot update a step: ${ws.noProject}`);
    return ws.workspace.updateStep(update, options);
  }
}
