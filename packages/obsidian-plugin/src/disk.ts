import { FileSystemAdapter, type App } from 'obsidian';
import { DesktopOnlyError } from './errors.js';
import { adapterFolder } from './vault-paths.js';

/** The vault's desktop adapter; throws `DesktopOnlyError` when the vault is not on a local filesystem. */
export function fileSystemAdapter(app: App): FileSystemAdapter {
  const adapter = app.vault.adapter;
  if (!(adapter instanceof FileSystemAdapter)) throw new DesktopOnlyError();
  return adapter;
}

/** Where a vault-relative path is on disk (`""` is the vault folder itself). */
export function diskPath(app: App, path: string): string {
  return fileSystemAdapter(app).getFullPath(adapterFolder(path));
}
