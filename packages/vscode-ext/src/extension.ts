import * as vscode from 'vscode';
import { registerCommands } from './commands/register';
import { ErrorFunnel } from './funnel';
import { MARK_ACTIVATE_END, MARK_ACTIVATE_START, MARK_STATUS_READY, mark } from './perf';
import { AgentMStatusBar } from './status-bar';
import { StorageStatus } from './storage-status';
import { PlanTreeProvider } from './views/plan-tree';
import { RecallTreeProvider } from './views/recall-tree';
import { createSources } from './wiring';

/**
 * Activated lazily by the AgentM views or any AgentM command (never `*`). Wires the data sources to the
 * views, commands and status bar; the first storage check runs after activate() returns.
 */
export function activate(context: vscode.ExtensionContext): void {
  mark(MARK_ACTIVATE_START);
  const output = vscode.window.createOutputChannel('AgentM', { log: true });
  const funnel = new ErrorFunnel(output);
  const sources = createSources();
  const statusBar = new AgentMStatusBar();
  funnel.attach(statusBar);
  const storage = new StorageStatus(sources.doctor, statusBar, funnel);
  const planTree = new PlanTreeProvider(sources.plans, funnel);
  const recallTree = new RecallTreeProvider(sources.recall, funnel);
  context.subscriptions.push(
    output,
    statusBar,
    storage,
    planTree,
    recallTree,
    vscode.window.createTreeView('agentm.plan', { treeDataProvider: planTree, showCollapseAll: true }),
    vscode.window.createTreeView('agentm.recall', { treeDataProvider: recallTree }),
    ...registerCommands({ sources, funnel, planTree, recallTree, storage, statusBar, secrets: context.secrets }),
  );
  void storage.refresh().then(
    () => mark(MARK_STATUS_READY),
    (error: unknown) => funnel.background('storage status', error),
  );
  mark(MARK_ACTIVATE_END);
}

export function deactivate(): void {}
