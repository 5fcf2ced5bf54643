import type AgentMPlugin from '../../src/main.js';
import type { RecallIndex } from '../../src/core-services/recall-index.js';

/** Every command the plugin registers (with the real core services). */
export const ALL_COMMANDS = [
  'open-active-plan',
  'open-conflicts-view',
  'open-plan-view',
  'open-related-memories',
  'recall',
  'save-selection-as-memory',
  'show-storage-doctor',
].map((id) => `agentm-vault:${id}`);

/** The recall index behind the real services. */
export function recallIndexOf(plugin: AgentMPlugin): RecallIndex {
  const services = plugin.services as unknown as { recallIndex?: RecallIndex } | undefined;
  if (!services?.recallIndex) throw new Error('the plugin was not given the real core services');
  return services.recallIndex;
}
