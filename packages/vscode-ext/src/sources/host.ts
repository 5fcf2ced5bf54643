import { processHost, type HostEnv } from '@agentm/core';
import { readSettings, selectionEnv, type AgentMSettings } from '../settings';

/**
 * The host core reads configuration through: this process's environment and home, with the
 * `agentm.vault.path` setting applied as `MEMORY_VAULT_PATH`. Read at every use, so a settings change or
 * a test's private config prefix (`AGENTM_INSTALL_PREFIX`) takes effect without a restart.
 */
export function currentHost(settings: AgentMSettings = readSettings()): HostEnv {
  return processHost(selectionEnv(settings));
}
