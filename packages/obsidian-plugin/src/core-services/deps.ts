import type { App, Component } from 'obsidian';
import type { PluginHost } from '../host.js';
import type { AgentMSettings } from '../settings.js';
import type { VaultContext } from '../vault-context.js';

/** What the core services take from the plugin. Getters, because settings and the context change at run time. */
export interface ServiceDeps {
  readonly app: App;
  /** Lifetime owner of the services' listeners (the plugin): everything registered ends with it. */
  readonly owner: Component;
  host(): PluginHost;
  settings(): AgentMSettings;
  /** The started memory-root context; throws when the plugin has not started yet. */
  context(): VaultContext;
  /** Conflict copies listed now; undefined before the first scan. */
  conflictCount(): number | undefined;
}
