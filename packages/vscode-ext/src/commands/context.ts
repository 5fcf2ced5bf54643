import type * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import type { Sources } from '../sources/types';
import type { AgentMStatusBar } from '../status-bar';
import type { StorageStatus } from '../storage-status';
import type { PlanTreeProvider } from '../views/plan-tree';
import type { RecallTreeProvider } from '../views/recall-tree';

/** Everything a command handler may use; built once in activate(). */
export interface CommandContext {
  readonly sources: Sources;
  readonly funnel: ErrorFunnel;
  readonly planTree: PlanTreeProvider;
  readonly recallTree: RecallTreeProvider;
  readonly storage: StorageStatus;
  readonly statusBar: AgentMStatusBar;
  readonly secrets: vscode.SecretStorage;
}

/** A command's body; its throw goes through the funnel, its value back to the caller. */
export type Handler = (ctx: CommandContext, ...args: unknown[]) => Promise<unknown>;
