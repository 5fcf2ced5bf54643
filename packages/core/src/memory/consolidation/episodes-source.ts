import type { StorageBackend } from '../../seam/backend.js';
import { Locator } from '../../seam/locator.js';
import { parseEpisodes, type Episode } from '../documents/episodes.js';
import { classifySource, DEFAULT_LAYOUT, type MemoryLayout } from '../documents/layout.js';
import { isIndexableName } from '../indexing/walk.js';

/**
 * Every episode of a project: the entries of its `_harness/progress*.md` files in each projects space,
 * read through the backend (full text, not the index's preview). Conflict copies and temp files are
 * not read. Sorted oldest first, then by id.
 */
export async function readProjectEpisodes(
  backend: StorageBackend,
  project: string,
  layout: MemoryLayout = DEFAULT_LAYOUT,
): Promise<Episode[]> {
  const episodes: Episode[] = [];
  for (const space of layout.projectSpaces) {
    const dir = new Locator(space).child(project, '_harness');
    const children = await backend.list(dir);
    const names = new Set(children.map((c) => c.name));
    for (const file of children) {
      if (!isIndexableName(file.name, names) || classifySource(file.key, layout).role !== 'progress') continue;
      const [info, text] = await Promise.all([backend.info(file), backend.read(file)]);
      if (info.isDir) continue;
      episodes.push(...parseEpisodes(text, { locator: file.key, owner: project, fallbackMs: info.mtimeMs }));
    }
  }
  return episodes.sort((a, b) => a.timeMs - b.timeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The locator of a project's consolidation watermark: `<space>/<project>/_harness/consolidation.json`. */
export function watermarkLocatorFor(project: string, space = DEFAULT_LAYOUT.projectSpaces[0]!): Locator {
  return new Locator(space).child(project, '_harness', 'consolidation.json');
}
