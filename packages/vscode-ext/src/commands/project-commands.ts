import { mkdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import {
  bindProject as bindFolder,
  getConfigValue,
  isSafeSegment,
  setConfigValues,
  validateRelativePrefix,
  type ProjectBinding,
} from '@agentm/core/config';
import { ExtensionError, NothingToDoError } from '../errors';
import { agentsHost } from '../sources/host';
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

/** What "Choose the vault…" takes from a caller that already knows (a test, a keybinding with args). */
interface VaultChoice {
  readonly vault?: string;
  readonly agentFolder?: string;
}

const isDir = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** Why a folder inside the vault cannot hold AgentM's memory (core's rule for memory_root), or undefined. */
function agentFolderProblem(value: string): string | undefined {
  return validateRelativePrefix(value.trim()) === undefined
    ? 'a folder inside the vault, such as Agent (not absolute, no ":" and no "..")'
    : undefined;
}

/**
 * Choose the vault…: the vault (the folder holding `.obsidian/`) and, separately, the agent folder inside
 * it where AgentM keeps memory and plans (`memory_root`, e.g. `Agent`) — what `agentm init` asks — written
 * into the shared `.agentm-config.json` through core's config writer (one atomic write, checked first),
 * so VS Code, the `agentm` CLI, `agentm mcp` and Claude Code's hooks use one memory root and one lock.
 * An `agentm.vault.path` override would keep this editor elsewhere: it is cleared, and the person told.
 */
export async function chooseVault(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  const given: VaultChoice = typeof arg === 'string' ? { vault: arg } : typeof arg === 'object' && arg ? arg : {};
  const host = agentsHost();
  let vault = given.vault;
  if (vault === undefined) {
    const picked = await vscode.window.showOpenDialog({
      title: 'AgentM: Choose the vault (the Obsidian vault folder, the one holding .obsidian)',
      openLabel: 'Use this vault',
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
    });
    vault = picked?.[0]?.fsPath;
    if (vault === undefined) return undefined;
  }
  if (!(await isDir(vault)))
    throw new ExtensionError(`'${vault}' is not a folder; choose your Obsidian vault's folder`);
  const current = (await getConfigValue(host, 'memory_root').catch(() => undefined)) as string | undefined;
  const agentFolder =
    given.agentFolder ??
    (await vscode.window.showInputBox({
      title: 'AgentM: The agent folder inside the vault',
      prompt: `Where AgentM keeps memory and plans inside ${basename(vault)} (the agentm CLI and its agents use the same folder)`,
      value: current ?? 'Agent',
      validateInput: agentFolderProblem,
    }));
  if (agentFolder === undefined) return undefined;
  const problem = agentFolderProblem(agentFolder);
  if (problem) throw new ExtensionError(`'${agentFolder}' cannot be the agent folder: it takes ${problem}`);
  const change = await setConfigValues(host, [
    ['vault_path', vault],
    ['memory_root', agentFolder.trim()],
  ]);
  const memoryRoot = join(vault, validateRelativePrefix(agentFolder.trim())!);
  await mkdir(memoryRoot, { recursive: true });
  const cleared = await clearVaultOverride();
  ctx.tracker.invalidate();
  ctx.funnel.notify(
    'info',
    `AgentM: the vault is ${vault}, its agent folder ${agentFolder.trim()} (memory root ${memoryRoot}), ` +
      `${change.changed ? 'written to' : 'already in'} ${change.file}, shared with the agentm CLI and its agents` +
      (cleared ? '; the agentm.vault.path override was cleared' : ''),
  );
  await ctx.storage.refresh();
  return memoryRoot;
}

/** Removes `agentm.vault.path` wherever it is set; true when it was. */
async function clearVaultOverride(): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('agentm');
  const set = config.inspect<string>('vault.path');
  const targets: Array<[unknown, vscode.ConfigurationTarget]> = [
    [set?.globalValue, vscode.ConfigurationTarget.Global],
    [set?.workspaceValue, vscode.ConfigurationTarget.Workspace],
    [set?.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder],
  ];
  let cleared = false;
  for (const [value, target] of targets)
    if (value !== undefined && value !== '') {
      await config.update('vault.path', undefined, target);
      cleared = true;
    }
  return cleared;
}

/** Get started: opens the AgentM walkthrough (choose the vault, bind the folder, save a memory, run a plan). */
export async function getStarted(): Promise<string> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  return WALKTHROUGH;
}
