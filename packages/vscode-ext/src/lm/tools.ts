import * as vscode from 'vscode';
import type { Sources } from '../sources/types';
import { planStatusTool } from './plan-status-tool';
import { recallTool } from './recall-tool';
import { saveTool } from './save-tool';
import { stepUpdateTool } from './step-update-tool';
import type { NamedTool } from './tool-kit';

export interface ToolContext {
  readonly packageJSON: unknown;
  readonly sources: Sources;
  /** A note was saved or a step changed: the views show it. */
  readonly onChanged: () => void;
}

/** AgentM's language model tools, by name (the names package.json contributes). */
export function agentmTools(context: ToolContext): readonly NamedTool<unknown>[] {
  const { packageJSON, sources, onChanged } = context;
  return [
    recallTool(packageJSON, sources.recall),
    saveTool(packageJSON, sources.notes, onChanged),
    planStatusTool(packageJSON, sources.plans),
    stepUpdateTool(packageJSON, sources.plans, onChanged),
  ];
}

/**
 * Registers the tools with VS Code's language model API, so Copilot's agent mode and any chat
 * participant can call them. An editor without the API (older than 1.95) gets none, and says so in the log.
 */
export function registerTools(tools: readonly NamedTool<unknown>[], log: (line: string) => void): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    log('language model tools: this editor has no vscode.lm.registerTool; AgentM registers none');
    return [];
  }
  return tools.map((tool) => vscode.lm.registerTool(tool.name, tool));
}
