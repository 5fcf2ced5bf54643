import * as vscode from 'vscode';
import type { ApprovalAsker } from '@agentm/core/harness';
import { registerCommands } from './commands/register';
import { setContextKey } from './context-keys';
import { ErrorFunnel, type NotificationPrompt } from './funnel';
import { AgentMMcpProvider, registerMcpProvider } from './lm/mcp-provider';
import type { NamedTool } from './lm/tool-kit';
import { agentmTools, registerTools } from './lm/tools';
import { MARK_ACTIVATE_END, MARK_ACTIVATE_START, MARK_STATUS_READY, MARK_VIEW_VISIBLE, mark, markOnce } from './perf';
import { RunStatusItem } from './run-status';
import { AgentMStatusBar } from './status-bar';
import { StorageStatus } from './storage-status';
import { DOCTOR_SCHEME, DoctorDocument } from './views/doctor-document';
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

/** What activate returns in the extension's test mode only: the e2e cannot click a modal or a toast, so it answers for them. */
export interface TestingApi {
  setCommandApprovalAsker(ask: ApprovalAsker): void;
  /** Replaces how notifications are shown (undefined: VS Code's again); the prompt sees the text and the buttons. */
  setNotificationPrompt(prompt: NotificationPrompt | undefined): void;
  /** The language model tools as registered (to read what `prepareInvocation` asks the person). */
  readonly tools: readonly NamedTool<unknown>[];
  /** The MCP server definition provider as registered. */
  readonly mcpProvider: AgentMMcpProvider;
}

/**
 * Activated lazily by the AgentM views, any AgentM command or one of its language model tools (never
 * `*`). Wires the data sources to the views, commands, status bar and tools, and reads nothing itself: the
 * first storage check runs after activate() returns, the plans when the Plan view asks, the memory index
 * when the Recall view (or a memory command) first needs it.
 */
export function activate(context: vscode.ExtensionContext): TestingApi | undefined {
  mark(MARK_ACTIVATE_START);
  const output = vscode.window.createOutputChannel('AgentM', { log: true });
  const funnel = new ErrorFunnel(output);
  const defaultPrompt = funnel.prompt;
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
  const runStatus = new RunStatusItem(wired.runner, sources.plans);
  const doctorDocument = new DoctorDocument();
  const recallPick = { open: false, value: '', items: [], searches: 0, active: undefined };
  const savePrompt = { step: 0, kinds: [], suggestedSlug: '', where: '' };
  wired.runner.onLog = (plan, line) => output.info(`run ${plan}: ${line}`);
  const tools = agentmTools({
    packageJSON: context.extension.packageJSON,
    sources,
    onChanged: () => {
      planTree.refresh();
      recallTree.refresh();
    },
  });
  const mcpProvider = new AgentMMcpProvider({
    extensionPath: context.extensionPath,
    version: String(context.extension.packageJSON.version),
  });
  const log = (line: string) => output.info(line);
  context.subscriptions.push(
    output,
    statusBar,
    storage,
    planTree,
    recallTree,
    runStatus,
    doctorDocument,
    mcpProvider,
    ...wired.disposables,
    // A changed .agentm-config.json, setting or project: the status bar checks the selection again, and
    // the walkthrough's "bind" step sees whether the folder is bound.
    wired.tracker.onDidResolve(() => {
      void storage.refresh();
      void wired.tracker.current().then(
        async (ws) => {
          await setContextKey('agentm.project.bound', ws.project !== undefined);
          await setContextKey('agentm.vault.configured', ws.workspace.protocol === 'vault');
        },
        () => setContextKey('agentm.project.bound', false),
      );
    }),
    // "Stop plan" is offered only while a plan runs in this window.
    wired.runner.onDidChangeRunning(() => void setContextKey('agentm.plan.running', wired.runner.running.length > 0)),
    vscode.workspace.registerTextDocumentContentProvider(DOCTOR_SCHEME, doctorDocument),
    ...treeView('agentm.plan', planTree, { showCollapseAll: true }),
    ...treeView('agentm.recall', recallTree),
    ...registerTools(tools, log),
    ...registerMcpProvider(mcpProvider, log),
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
      runStatus,
      doctorDocument,
      recallPick,
      savePrompt,
    }),
  );
  void storage.refresh().then(
    () => mark(MARK_STATUS_READY),
    (error: unknown) => funnel.background('storage status', error),
  );
  mark(MARK_ACTIVATE_END);
  return context.extensionMode === vscode.ExtensionMode.Test
    ? {
        setCommandApprovalAsker: (ask) => void (wired.runner.askApproval = ask),
        setNotificationPrompt: (prompt) => void (funnel.prompt = prompt ?? defaultPrompt),
        tools,
        mcpProvider,
      }
    : undefined;
}

/** Watchers, the index and the views are in `context.subscriptions`: VS Code disposes them. */
export function deactivate(): void {}
