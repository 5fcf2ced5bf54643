import * as vscode from 'vscode';
import type { ApprovalAsker } from '@agentm/core';
import { registerCommands } from './commands/register';
import { ErrorFunnel } from './funnel';
import { MARK_ACTIVATE_END, MARK_ACTIVATE_START, MARK_STATUS_READY, MARK_VIEW_VISIBLE, mark, markOnce } from './perf';
import { AgentMStatusBar } from './status-bar';
import { StorageStatus } from './storage-status';
import { PlanTreeProvider } from './views/plan-tree';
import { RecallTreeProvider } from './views/recall-tree';
import { createSources } from './wiring';

/** A tree view whose first visibility is marked (the memory index waits for it). */
function treeView<T>(
  id: string,
  provider: vscode.TreeDataProvider<T>,
  options: Partial<vscode.TreeViewOptions<T>> = {},
): vscode.Disposable[] {
  const view = vscode.window.createTreeView(id, { treeDataProvider: provider, ...options });
  if (view.visible) markOnce(MARK_VIEW_VISIBLE);
  return [view, view.onDidChangeVisibility((e) => e.visible && markOnce(MARK_VIEW_VISIBLE))];
}

/**
 * Activated lazily by the AgentM views or any AgentM command (never `*`). Wires the data sources to the
 * views, commands and status bar, and reads nothing itself: the first storage check runs after
 * activate() returns, the plans when the Plan view asks, the memory index when the Recall view (or a
 * memory command) first needs it.
 */
/** What activate returns in the extension's test mode only: the e2e cannot click a modal, so it answers for it. */
export interface TestingApi {
  setCommandApprovalAsker(ask: ApprovalAsker): void;
}

export function activate(context: vscode.ExtensionContext): TestingApi | undefined {
  mark(MARK_ACTIVATE_START);
  const output = vscode.window.createOutputChannel('AgentM', { log: true });
  const funnel = new ErrorFunnel(output);
  const wired = createSources({
    storageDir: context.globalStorageUri.fsPath,
    secrets: context.secrets,
    onBackgroundError: (source, error) => funnel.background(source, error),
  });
  const { sources } = wired;
  const statusBar = new AgentMStatusBar();
  funnel.attach(statusBar);
  const storage = new StorageStatus(sources.doctor, statusBar, funnel);
  const planTree = new PlanTreeProvider(sources.plans, funnel);
  const recallTree = new RecallTreeProvider(sources.recall, funnel);
  const recallPick = { open: false, value: '', items: [], searches: 0 };
  context.subscriptions.push(
    output,
    statusBar,
    storage,
    planTree,
    recallTree,
    ...wired.disposables,
    // A changed .agentm-config.json, setting or project: the status bar checks the selection again.
    wired.tracker.onDidResolve(() => void storage.refresh()),
    ...treeView('agentm.plan', planTree, { showCollapseAll: true }),
    ...treeView('agentm.recall', recallTree),
    ...registerCommands({
      sources,
      funnel,
      planTree,
      recallTree,
      storage,
      statusBar,
      secrets: context.secrets,
      tracker: wired.tracker,
      indexes: wired.indexes,
      runner: wired.runner,
      recallPick,
    }),
  );
  void storage.refresh().then(
    () => mark(MARK_STATUS_READY),
    (error: unknown) => funnel.background('storage status', error),
  );
  mark(MARK_ACTIVATE_END);
  return context.extensionMode === vscode.ExtensionMode.Test
    ? { setCommandApprovalAsker: (ask) => void (wired.runner.askApproval = ask) }
    : undefined;
}

/** Watchers, the index and the views are in `context.subscriptions`: VS Code disposes them. */
export function deactivate(): void {}
