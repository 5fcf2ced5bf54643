import * as vscode from 'vscode';
import { lockDirFor } from '@agentm/core/write-protocol';
import { contextKeys } from '../context-keys';
import { providerApiKey } from '../secrets';
import { activationReport } from '../perf';
import type { CommandContext, Handler } from './context';
import { showDoctor } from './doctor';
import { consolidate, recall, reindex, saveSelection, saveSelectionGlobal } from './memory-commands';
import { openPlan, openProgress, retryStep, runPlan, stopPlan, switchPlan, updateStep } from './plan-commands';
import { bindProject, chooseVault, getStarted } from './project-commands';
import { clearApiKey, setApiKey, setPhase } from './settings-commands';

/** Every command of the extension, by id; `package.json` contributes the same ids (a test checks both ways). */
export const COMMANDS: Readonly<Record<string, { readonly title: string; readonly run: Handler }>> = {
  'agentm.saveSelection': { title: 'Save selection as memory', run: saveSelection },
  'agentm.saveSelectionGlobal': { title: 'Save selection as global memory', run: saveSelectionGlobal },
  'agentm.recall': { title: 'Recall', run: recall },
  'agentm.switchPlan': { title: 'Switch plan', run: switchPlan },
  'agentm.setPhase': { title: 'Set phase', run: setPhase },
  'agentm.openPlan': { title: 'Open PLAN', run: openPlan },
  'agentm.openProgress': { title: 'Open progress', run: openProgress },
  'agentm.runPlan': { title: 'Run plan', run: runPlan },
  'agentm.stopPlan': { title: 'Stop plan', run: stopPlan },
  'agentm.retryStep': { title: 'Retry failed step', run: retryStep },
  'agentm.updateStep': { title: 'Update step', run: updateStep },
  'agentm.doctor': { title: 'Storage doctor', run: showDoctor },
  'agentm.reindex': { title: 'Reindex memory', run: reindex },
  'agentm.consolidate': { title: 'Consolidate memory', run: consolidate },
  'agentm.setApiKey': { title: 'Set provider API key', run: setApiKey },
  'agentm.clearApiKey': { title: 'Clear provider API key', run: clearApiKey },
  'agentm.refresh': { title: 'Refresh views', run: refresh },
  'agentm.bindProject': { title: 'Bind this folder to a project', run: bindProject },
  'agentm.chooseVault': { title: 'Choose the vault', run: chooseVault },
  'agentm.getStarted': { title: 'Get started', run: getStarted },
  'agentm.inspect': { title: 'Inspect', run: inspect },
};

async function refresh(ctx: CommandContext): Promise<true> {
  ctx.tracker.invalidate(); // resolve the project again: a git remote or a marker no watcher saw
  ctx.planTree.refresh();
  ctx.recallTree.refresh();
  await ctx.storage.refresh();
  return true;
}

/**
 * Hidden from the palette: the extension's state as data, for tests and bug reports — activation
 * timings from its own performance marks, the status bar, recent funnel messages, whether a key is set,
 * what the views show (their last load, nothing re-read), where the watchers are, the index, running plans.
 */
async function inspect(ctx: CommandContext): Promise<unknown> {
  return {
    activation: activationReport(),
    statusBar: ctx.statusBar.state,
    messages: [...ctx.funnel.recent],
    hasApiKey: (await providerApiKey(ctx.secrets)) !== undefined,
    views: { plan: await ctx.planTree.snapshot(), recall: await ctx.recallTree.snapshot() },
    watched: ctx.tracker.watched,
    index: ctx.indexes.status,
    running: ctx.runner.running,
    runLog: ctx.runner.log.tail,
    storage: await storageOf(ctx),
    runStatus: ctx.runStatus.state,
    contextKeys: contextKeys(),
    recallPick: { ...ctx.recallPick },
    savePrompt: { ...ctx.savePrompt },
  };
}

/** This window's memory root and lock directory, as the workspace opened them (for the agreement tests). */
async function storageOf(ctx: CommandContext): Promise<{ memoryRoot?: string; lockDir?: string }> {
  const ws = await ctx.tracker.current().catch(() => undefined);
  const root = ws?.memoryRoot;
  return root === undefined ? {} : { memoryRoot: root, lockDir: lockDirFor(root, ws!.workspace.lockRoot) };
}

/** Registers every command; each runs through the error funnel and resolves with a `CommandOutcome`. */
export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, { title, run }]) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => ctx.funnel.userAction(title, () => run(ctx, ...args))),
  );
}
