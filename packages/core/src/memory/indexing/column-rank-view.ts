import { EPISODE_KIND } from '../documents/document.js';
import type { RankView, ScopeOptions } from '../documents/rank-contract.js';
import { RECALLABLE, type DocStore, type StoredDoc } from './doc-store.js';

/**
 * The ranking view over a DocStore's columns: scope checks, recency and the weights read typed
 * arrays, never document objects; only the few documents returned are decoded (`doc`).
 */
export function columnRankView(
  s: DocStore,
  size: number,
  doc: (slot: number) => StoredDoc | undefined,
): RankView<StoredDoc> {
  const episodeKind = s.kinds.id(EPISODE_KIND);
  return {
    size,
    doc,
    updatedMs: (slot) => s.updated.data[slot]!,
    episode: (slot) => s.kind.data[slot] === episodeKind,
    global: (slot) => s.owner.data[slot] === 0,
    scope: (options: ScopeOptions) => {
      const flags = s.flags.data;
      const owners = s.owner.data;
      const kindCol = s.kind.data;
      const updated = s.updated.data;
      // −1: every project. A project nobody owns yet (−2) still sees the global notes (owner id 0).
      const owner = options.project === undefined ? -1 : s.owners.id(options.project);
      const project = options.project === undefined ? -1 : owner === -1 ? -2 : owner;
      const kinds =
        options.kinds && options.kinds.length > 0 ? new Set(options.kinds.map((k) => s.kinds.id(k))) : undefined;
      const oldest = options.window > 0 ? options.now - options.window : Number.NEGATIVE_INFINITY;
      return (slot) =>
        (flags[slot]! & RECALLABLE) !== 0 &&
        (project === -1 || owners[slot] === 0 || owners[slot] === project) &&
        (kinds === undefined || kinds.has(kindCol[slot]!)) &&
        updated[slot]! >= oldest;
    },
  };
}
