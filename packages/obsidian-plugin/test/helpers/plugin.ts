import { readFileSync } from 'node:fs';
import type { PluginManifest } from 'obsidian';
import { afterEach, expect } from 'vitest';
import { CONFLICTS_VIEW_TYPE, ConflictsView } from '../../src/conflicts/conflicts-view.js';
import AgentMPlugin from '../../src/main.js';
import type { AgentMServices } from '../../src/services.js';
import { finishStartup, loadPlugin, unloadPlugin } from '../fake-obsidian/testing.js';
import { testVault, type TestVault } from './vault.js';
import type { PluginHost } from '../../src/host.js';

export const MANIFEST = JSON.parse(
  readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8'),
) as PluginManifest;

/** The plugin with core services handed in, as the lead's wiring will do. */
export class PluginWithServices extends AgentMPlugin {
  static services: AgentMServices | undefined;
  protected override createServices(): AgentMServices | undefined {
    return PluginWithServices.services;
  }
}

/** Plugins started by this test; `afterEach` unloads those the test left loaded (also when it failed). */
const started = new Set<AgentMPlugin>();
afterEach(() => {
  for (const plugin of started) unloadPlugin(plugin); // unloading twice is a no-op, as in Obsidian
  started.clear();
});

export interface Started {
  readonly v: TestVault;
  readonly plugin: AgentMPlugin;
}

/**
 * The app's start-up with the plugin in it: vault over `files` (then `before`, e.g. agentm's config) →
 * plugin loaded (host pointed at temp dirs) → vault indexed → layout ready → the plugin's start-up finished.
 */
export async function startWithPlugin(
  files: Record<string, string> = {},
  options: {
    services?: AgentMServices;
    host?: Partial<PluginHost>;
    env?: Record<string, string>;
    before?: (v: TestVault) => Promise<void>;
  } = {},
): Promise<Started> {
  const v = await testVault(files, {
    start: false,
    ...(options.host ? { host: options.host } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  await options.before?.(v);
  PluginWithServices.services = options.services;
  const plugin = await loadPlugin(v.fake, options.services ? PluginWithServices : AgentMPlugin, MANIFEST, (p) => {
    p.host = v.host;
  });
  started.add(plugin);
  await finishStartup(v.fake);
  await plugin.whenStarted();
  return { v, plugin };
}

/** Opens the conflicts view through the plugin and waits for its first full draw. */
export async function openConflicts(s: Started): Promise<ConflictsView> {
  await s.plugin.openConflictsView();
  const view = s.v.app.workspace.getLeavesOfType(CONFLICTS_VIEW_TYPE)[0]?.view;
  expect(view).toBeInstanceOf(ConflictsView);
  await (view as ConflictsView).rendered();
  return view as ConflictsView;
}

/** Runs the plugin's command `id` as the palette would and resolves once the command's work is done. */
export async function runCommand(s: Started, id: string): Promise<void> {
  expect(s.v.fake.commands.executeCommandById(`agentm-vault:${id}`)).toBe(true);
  await s.v.fake.commands.__lastRun;
}

/** Runs the plugin's command `id` (e.g. `open-plan-view`) and resolves with the view of `type` it opened, drawn. */
export async function openByCommand<V extends { rendered(): Promise<void> }>(
  s: Started,
  id: string,
  type: string,
  View: abstract new (...args: never[]) => V,
): Promise<V> {
  await runCommand(s, id);
  const view = s.v.app.workspace.getLeavesOfType(type)[0]?.view as V | undefined;
  expect(view).toBeInstanceOf(View);
  await view!.rendered();
  return view!;
}

/** The vault watcher noticed disk changes; the index rebuilt; the view redrew. */
export async function settle(s: Started, view?: ConflictsView): Promise<void> {
  await s.v.fake.vault.rescan();
  await s.plugin.conflicts?.refresh();
  await view?.rendered();
}

/** The card of a copy in the view. */
export function card(view: ConflictsView, copyPath: string): HTMLElement | null {
  return view.contentEl.querySelector<HTMLElement>(`.agentm-conflict[data-copy="${CSS.escape(copyPath)}"]`);
}

/** A button by its text inside `root`. */
export function button(root: ParentNode, text: string): HTMLButtonElement {
  const found = Array.from(root.querySelectorAll('button')).find((b) => b.textContent === text);
  if (!found)
    throw new Error(
      `no button "${text}" among ${Array.from(root.querySelectorAll('button'))
        .map((b) => b.textContent)
        .join(', ')}`,
    );
  return found;
}

/** The most recently opened modal, if any. */
export function modal(): HTMLElement | null {
  return Array.from(document.body.querySelectorAll<HTMLElement>('.modal-container .modal')).at(-1) ?? null;
}
