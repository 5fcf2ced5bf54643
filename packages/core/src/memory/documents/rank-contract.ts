import { EPISODE_KIND, isRecallable } from './document.js';

/**
 * The contract between the index and the ranker: what ranking needs of a document, which documents a
 * query may return, and slot-indexed access to them. It sits below both (the index implements
 * `RankView`, recall ranks over it), so neither imports the other's folder.
 */

/** What ranking needs of a document. */
export interface RankDoc {
  readonly owner: string;
  readonly kind: string;
  readonly status: string;
  readonly updatedMs: number;
}

/** Which documents a query may return. */
export interface ScopeOptions {
  /** Project slug: its notes plus global ones (owner `""`). Undefined: every project (unscoped). */
  readonly project?: string | undefined;
  /** Only these kinds (e.g. `['fix', 'episode']`); undefined or empty = all. */
  readonly kinds?: readonly string[] | undefined;
  /** Only documents updated within this many ms before `now`; 0 = all history. */
  readonly window: number;
  readonly now: number;
}

/**
 * Slot-indexed access for ranking. `IndexState` implements it over typed columns, so scoring 100 000
 * candidates never touches their document objects — only the top k are looked up.
 */
export interface RankView<D> {
  readonly size: number;
  doc(slot: number): D | undefined;
  updatedMs(slot: number): number;
  /** Whether the slot holds an episode (an entry of a harness log) rather than a note. */
  episode(slot: number): boolean;
  /** Whether the slot holds a global note (no owning project). */
  global(slot: number): boolean;
  /** A predicate for "this slot holds a document recall may return", prepared once per query. */
  scope(options: ScopeOptions): (slot: number) => boolean;
}

/** A RankView over an array of documents by slot (the plain, object-reading implementation). */
export function docsView<D extends RankDoc>(bySlot: readonly (D | undefined)[]): RankView<D> {
  return {
    size: bySlot.length,
    doc: (slot) => bySlot[slot],
    updatedMs: (slot) => bySlot[slot]?.updatedMs ?? 0,
    episode: (slot) => bySlot[slot]?.kind === EPISODE_KIND,
    global: (slot) => bySlot[slot]?.owner === '',
    scope: (options) => (slot) => {
      const doc = bySlot[slot];
      return doc !== undefined && inScope(doc, options);
    },
  };
}

/** Whether a document may be returned for these options (status, project scope, kinds, window). */
export function inScope(doc: RankDoc, options: ScopeOptions): boolean {
  if (!isRecallable(doc)) return false;
  if (options.project !== undefined && doc.owner !== '' && doc.owner !== options.project) return false;
  if (options.kinds && options.kinds.length > 0 && !options.kinds.includes(doc.kind)) return false;
  if (options.window > 0 && options.now - doc.updatedMs > options.window) return false;
  return true;
}
