import * as vscode from 'vscode';
import { PHASES, type Phase } from '@agentm/core/memory';

/** agentm's phases (core's list); phase recall treats an unknown phase as `work`. */
export { PHASES, type Phase };

/** The `agentm.*` settings, read once per use (VS Code caches them). Keys live in SecretStorage, never here. */
export interface AgentMSettings {
  /**
   * `agentm.vault.path`: the memory root, overriding what the shared `.agentm-config.json` (and
   * `MEMORY_VAULT_PATH`) say for this editor only; '' when unset (the usual case: the editor and the agents
   * read the same config).
   */
  readonly vaultPath: string;
  readonly phase: Phase;
  /** The recall tuning a person set; each absent when not set (core's defaults and the config's half-life then apply). */
  readonly recall: {
    readonly semanticWeight: number | undefined;
    readonly recencyWeight: number | undefined;
    readonly halfLifeHours: number | undefined;
    readonly maxResults: number;
  };
  readonly providers: {
    readonly baseUrl: string;
    readonly embeddingModel: string;
    readonly chatModel: string;
  };
}

export function readSettings(): AgentMSettings {
  const c = vscode.workspace.getConfiguration('agentm');
  const phase = c.get<string>('recall.phase', 'work');
  return {
    vaultPath: c.get<string>('vault.path', '').trim(),
    phase: (PHASES as readonly string[]).includes(phase) ? (phase as Phase) : 'work',
    recall: {
      semanticWeight: explicit<number>(c, 'recall.semanticWeight'),
      recencyWeight: explicit<number>(c, 'recall.recencyWeight'),
      halfLifeHours: explicit<number>(c, 'recall.halfLifeHours'),
      maxResults: c.get<number>('recall.maxResults', 10),
    },
    providers: {
      baseUrl: c.get<string>('providers.baseUrl', '').trim(),
      embeddingModel: c.get<string>('providers.embeddingModel', '').trim(),
      chatModel: c.get<string>('providers.chatModel', '').trim(),
    },
  };
}

/** A setting's value when a person set it (user, workspace or folder), else undefined: never the default. */
function explicit<T>(c: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const i = c.inspect<T>(key);
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue ?? undefined;
}

/**
 * The environment core should see: the process environment with `agentm.vault.path` applied as
 * `MEMORY_VAULT_PATH`, so selection has one input and the setting wins over the variable.
 */
export function selectionEnv(settings: AgentMSettings, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return settings.vaultPath ? { ...env, MEMORY_VAULT_PATH: settings.vaultPath } : { ...env };
}

/** Writes the phase to the workspace when one is open (phases are per project), else to user settings. */
export async function updatePhase(phase: Phase): Promise<void> {
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('agentm').update('recall.phase', phase, target);
}
