import type * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import type { IndexService } from '../sources/index-service';
import type { CorePlanRunner } from '../sources/plan-runner';
import type { ProjectTracker } from '../sources/project-tracker';
import type { Sources } from '../sources/types';
import type { AgentMStatusBar } from '../status-bar';
import type { StorageStatus } from '../storage-status';
import type { PlanTreeProvider } from '../views/plan-tree';
import type { RecallTreeProvider } from '../views/recall-tree';
import type { RecallPickState } from './memory-commands';

/** Everything a command handler may use; built once in activate(). */
export interface CommandContext {
  readonly sources: Sources;
  readonly funnel: ErrorFunnel;
  readonly planTree: PlanTreeProvider;
  readonly recallTree: RecallTreeProvider;
  readonly storage: StorageStatus;
  readonly statusBar: AgentMStatusBar;
  readonly secrets: vscode.SecretStorage;
  readonly tracker: ProjectTracker;
  readonly indexes: IndexService;
  readonly runner: CorePlanRunner;
  /** What the Recall… quick pick shows (for the inspect command). */
  readonly recallPick: RecallPickState;
}

/** A command's body; its throw goes through the funnel, its value back to the caller. */
export type Handler = (ctx: CommandContext, ...args: unknown[]) => Promise<unknown>;
