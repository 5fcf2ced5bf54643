import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { bindProject as bindFolder, isSafeSegment, type ProjectBinding } from '@agentm/core';
import { ExtensionError, NothingToDoError } from '../errors';
import type { CommandContext } from './context';

/** The walkthrough's id as `workbench.action.openWalkthrough` takes it: `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'agentm.agentm-vscode#getStarted';

function slugProblem(value: string): string | undefined {
  const slug = value.trim();
  return isSafeSegment(slug)
    ? undefined
    : 'a project slug is one folder name: not empty, not . or .., without / or \\ (e.g. my-repo)';
}

/**
 * Bind this folder to a project: writes `"vault_project": "<slug>"` into the folder's
 * `.harness/project.json` through core (an existing file keeps its other keys; a folder bound to another
 * project is refused, naming the fix). The slug proposed is the one resolved now (git origin), else the
 * folder's name. The views follow at once.
 */
export async function bindProject(ctx: CommandContext, arg?: unknown): Promise<ProjectBinding | undefined> {
  const ws = await ctx.tracker.current();
  if (!ws.folder) throw new NothingToDoError('open the repository folder of your project first, then bind it');
  const slug =
    typeof arg === 'string'
      ? arg
      : await vscode.window.showInputBox({
          title: 'AgentM: Bind this folder to a project',
          prompt: `The project in your vault that ${basename(ws.folder)} works on (its folder under desk/projects)`,
          value: ws.project?.slug ?? basename(ws.folder),
          validateInput: slugProblem,
        });
  if (slug === undefined) return undefined;
  const problem = slugProblem(slug);
  if (problem) throw new ExtensionError(`'${slug}' cannot be a project: ${problem}`);
  const binding = await bindFolder(ws.folder, slug);
  ctx.tracker.invalidate();
  ctx.planTree.refresh();
  ctx.recallTree.refresh();
  ctx.funnel.notify(
    'info',
    binding.outcome === 'unchanged'
      ? `AgentM: this folder is already bound to project '${binding.slug}' (${binding.file})`
      : `AgentM: bound this folder to project '${binding.slug}' (${binding.file})`,
  );
  return binding;
}

/**
 * Choose the vault…: a folder picker (or a path argument) for the memory root AgentM works in — a folder
 * in your Obsidian vault — stored in the `agentm.vault.path` user setting.
 */
export async function chooseVault(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  let path = typeof arg === 'string' ? arg : undefined;
  if (path === undefined) {
    const picked = await vscode.window.showOpenDialog({
      title: 'AgentM: Choose the vault (the folder AgentM keeps memory and plans in)',
      openLabel: 'Use this folder',
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
    });
    path = picked?.[0]?.fsPath;
    if (path === undefined) return undefined;
  }
  const isDir = await stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir)
    throw new ExtensionError(`'${path}' is not a folder; choose your vault's folder (or the memory root inside it)`);
  await vscode.workspace.getConfiguration('agentm').update('vault.path', path, vscode.ConfigurationTarget.Global);
  ctx.funnel.notify('info', `AgentM: the vault is now ${path} (setting agentm.vault.path)`);
  await ctx.storage.refresh();
  return path;
}

/** Get started: opens the AgentM walkthrough (choose the vault, bind the folder, save a memory, run a plan). */
export async function getStarted(): Promise<string> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  return WALKTHROUGH;
}
