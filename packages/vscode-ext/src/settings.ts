import * as vscode from 'vscode';
import { PHASES, type Phase } from '@agentm/core';

/** agentm's phases (core's list); phase recall treats an unknown phase as `work`. */
export { PHASES, type Phase };

/** The `agentm.*` settings, read once per use (VS Code caches them). Keys live in SecretStorage, never here. */
export interface AgentMSettings {
  /** `agentm.vault.path`: the memory root, overriding `MEMORY_VAULT_PATH`; '' when unset. */
  readonly vaultPath: string;
  readonly phase: Phase;
  readonly recall: {
    readonly semanticWeight: number;
    readonly recencyWeight: number;
    readonly halfLifeHours: number;
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
      semanticWeight: c.get<number>('recall.semanticWeight', 0.7),
      recencyWeight: c.get<number>('recall.recencyWeight', 0.3),
      halfLifeHours: c.get<number>('recall.halfLifeHours', 1),
      maxResults: c.get<number>('recall.maxResults', 10),
    },
    providers: {
      baseUrl: c.get<string>('providers.baseUrl', '').trim(),
      embeddingModel: c.get<string>('providers.embeddingModel', '').trim(),
      chatModel: c.get<string>('providers.chatModel', '').trim(),
    },
  };
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
