/**
 * Vault-relative paths as Obsidian writes them: `/`-separated, no leading slash, `""` for the root.
 * Pure string helpers; the adapter turns a path into a disk path.
 */

/** `a/b` + `c.md` → `a/b/c.md`; an empty folder is the vault root. */
export function joinVaultPath(folder: string, ...rest: string[]): string {
  return [folder, ...rest].filter((part) => part !== '' && part !== '/').join('/');
}

/** The folder holding `path` (`""` for a file at the vault root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The last segment of `path`. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The adapter's spelling of a folder path: the vault root is `/`. */
export function adapterFolder(folder: string): string {
  return folder === '' ? '/' : folder;
}
