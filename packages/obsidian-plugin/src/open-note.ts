import { Component, Notice, TFile, type Plugin, type TAbstractFile } from 'obsidian';

/** How long to wait for Obsidian's file watcher to report a file the plugin has just written. */
export const INDEX_WAIT_MS = 10_000;

/**
 * The vault's `TFile` for `path`, once Obsidian knows it. Files the plugin writes on disk (temp +
 * rename, under the lock) reach the vault through its file watcher a moment later, as a `create`; this
 * waits for that (bounded), on listeners owned by a child of `plugin`, so an unload ends the wait too.
 */
export function whenIndexed(plugin: Plugin, path: string, timeoutMs = INDEX_WAIT_MS): Promise<TFile | null> {
  const { vault } = plugin.app;
  const known = vault.getAbstractFileByPath(path);
  if (known instanceof TFile) return Promise.resolve(known);
  return new Promise((resolve) => {
    const waiter = plugin.addChild(new Component());
    const done = (file: TFile | null) => {
      resolve(file);
      plugin.removeChild(waiter);
    };
    const arrived = (file: TAbstractFile) => {
      if (file.path === path && file instanceof TFile) done(file);
    };
    waiter.registerEvent(vault.on('create', arrived));
    waiter.registerEvent(vault.on('rename', arrived));
    const timer = window.setTimeout(() => done(null), timeoutMs);
    waiter.register(() => {
      window.clearTimeout(timer);
      resolve(null);
    });
  });
}

/** Opens `path` in the current tab as soon as the vault knows it; a notice when it does not appear. */
export async function openWhenIndexed(plugin: Plugin, path: string, timeoutMs = INDEX_WAIT_MS): Promise<boolean> {
  const file = await whenIndexed(plugin, path, timeoutMs);
  if (!file) {
    new Notice(`AgentM: "${path}" is not in the vault (yet); open it from the file explorer.`);
    return false;
  }
  await plugin.app.workspace.getLeaf(false).openFile(file);
  return true;
}
