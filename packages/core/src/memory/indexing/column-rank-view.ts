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
    // Per slot (only the candidates that reach the heap ask), never the whole column of a loaded snapshot.
    updatedMs: (slot) => s.updated.at(slot),
    episode: (slot) => s.kind.at(slot) === episodeKind,
    global: (slot) => s.owner.at(slot) === 0,
    scope: (options: ScopeOptions) => {
      const flags = s.flags.data;
      // −1: every project. A project nobody owns yet (−2) still sees the global notes (owner id 0).
      const owner = options.project === undefined ? -1 : s.owners.id(options.project);
      const project = options.project === undefined ? -1 : owner === -1 ? -2 : owner;
      const owners = project === -1 ? undefined : s.owner.data;
      const kinds =
        options.kinds && options.kinds.length > 0 ? new Set(options.kinds.map((k) => s.kinds.id(k))) : undefined;
      const kindCol = kinds === undefined ? undefined : s.kind.data;
      const windowed = options.window > 0;
      const oldest = windowed ? options.now - options.window : Number.NEGATIVE_INFINITY;
      const updated = windowed ? s.updated.data : undefined;
      return (slot) =>
        (flags[slot]! & RECALLABLE) !== 0 &&
        (owners === undefined || owners[slot] === 0 || owners[slot] === project) &&
        (kindCol === undefined || kinds!.has(kindCol[slot]!)) &&
        (updated === undefined || updated[slot]! >= oldest);
    },
  };
}
