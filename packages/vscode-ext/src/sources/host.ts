import { processHost, type HostEnv } from '@agentm/core';
import { readSettings, selectionEnv, type AgentMSettings } from '../settings';

/** How the doctor and the status bar name the editor's own memory-root override. */
export const VAULT_OVERRIDE = 'the agentm.vault.path setting';

/** How to make the editor and the agents agree, in this editor's words. */
export const AGREE_FIX =
  'clear agentm.vault.path (the shared .agentm-config.json then decides, as for the agents), or run "AgentM: Choose the vault…" to point both at one vault and agent folder';

/**
 * The host core reads configuration through: this process's environment and home, with the
 * `agentm.vault.path` setting (when set) applied as `MEMORY_VAULT_PATH`. Read at every use, so a settings
 * change or a test's private config prefix (`AGENTM_INSTALL_PREFIX`) takes effect without a restart.
 */
export function currentHost(settings: AgentMSettings = readSettings()): HostEnv {
  return processHost(selectionEnv(settings));
}

/**
 * The host an agent in this window's folder reads (the `agentm` CLI in its terminal, `agentm mcp`,
 * Claude Code's hooks): the same environment without the editor's own setting. The doctor compares the
 * two, so an override that splits the editor from its agents fails loudly.
 */
export function agentsHost(): HostEnv {
  return processHost({ ...process.env });
}
