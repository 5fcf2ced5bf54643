import type * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import type { IndexService } from '../sources/index-service';
import type { CorePlanRunner } from '../sources/plan-runner';
import type { ProjectTracker } from '../sources/project-tracker';
import type { Sources } from '../sources/types';
import type { RunStatusItem } from '../run-status';
import type { AgentMStatusBar } from '../status-bar';
import type { StorageStatus } from '../storage-status';
import type { DoctorDocument } from '../views/doctor-document';
import type { PlanTreeProvider } from '../views/plan-tree';
import type { RecallTreeProvider } from '../views/recall-tree';
import type { RecallPickState, SavePromptState } from './memory-commands';

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
  readonly runStatus: RunStatusItem;
  readonly doctorDocument: DoctorDocument;
  /** What the Recall… quick pick shows (for the inspect command). */
  readonly recallPick: RecallPickState;
  /** What the save prompts show (for the inspect command). */
  readonly savePrompt: SavePromptState;
}

/** A command's body; its throw goes through the funnel, its value back to the caller. */
export type Handler = (ctx: CommandContext, ...args: unknown[]) => Promise<unknown>;
