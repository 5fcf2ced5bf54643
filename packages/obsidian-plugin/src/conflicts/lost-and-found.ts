import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** A file Google Drive put in its lost_and_found folder (outside the vault). */
export interface LostAndFoundFile {
  /** Absolute path on disk. */
  readonly path: string;
  readonly name: string;
  /** Which lost_and_found root it is under. */
  readonly root: string;
}

/**
 * Every file under the given lost_and_found roots (recursively), as agentm's conflict janitor lists
 * them: no name filter, since Drive puts only orphans there. Roots that do not exist are skipped.
 * Read-only: nothing here is ever written or removed.
 */
export async function listLostAndFound(roots: readonly string[]): Promise<LostAndFoundFile[]> {
  const found: LostAndFoundFile[] = [];
  const walk = async (root: string, dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(root, path);
      else if (entry.isFile()) found.push({ path, name: entry.name, root });
    }
  };
  for (const root of roots) await walk(root, root);
  return found;
}
