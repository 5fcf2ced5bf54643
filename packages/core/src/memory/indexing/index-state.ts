import { isRecallable, type IndexDocument } from '../documents/document.js';
import type { RankView, ScopeOptions } from '../documents/rank-view.js';
import { Bm25Index } from './bm25.js';
import { tokenize } from './tokenize.js';

/** What the index remembers of a source file, to tell next time whether it changed. */
export interface FileEntry {
  readonly key: string;
  readonly mtimeMs: number;
  readonly size: number;
  /** sha256 of the bytes read; an mtime change with the same hash re-indexes nothing. */
  readonly hash: string;
  /** Ids of the documents the file produced (empty for a file that maps to nothing). */
  readonly docIds: readonly string[];
}

/** A document as the index keeps it: everything but the full text, which stays in the Markdown. */
export interface StoredDoc extends Omit<IndexDocument, 'text'> {
  /** The first characters of the text, whitespace collapsed: snippets and previews. */
  readonly preview: string;
  readonly slot: number;
}

/** Characters of text kept per document for snippets (the rest is read from the note when needed). */
export const PREVIEW_CHARS = 200;

/** The text that is tokenized for a document: the title counts twice, then tags and body. */
export function searchableText(doc: Pick<IndexDocument, 'title' | 'tags' | 'text'>): string {
  return `${doc.title}\n${doc.title}\n${doc.tags.join(' ')}\n${doc.text}`;
}

export function previewOf(text: string): string {
  const flat = text
    .slice(0, PREVIEW_CHARS * 3)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > PREVIEW_CHARS ? flat.slice(0, PREVIEW_CHARS) : flat;
}

/**
 * The in-memory index: files, documents by id and by slot, and the BM25 postings. Mutated only
 * through `putFile`/`deleteFile`, which keep the three views consistent.
 */
export class IndexState {
  bm25 = new Bm25Index();
  readonly files = new Map<string, FileEntry>();
  readonly docs = new Map<string, StoredDoc>();
  bySlot: (StoredDoc | undefined)[] = [];
  // Columns by slot for ranking: scope checks and recency read these, never the document objects.
  readonly #owners = new Map<string, number>([['', 0]]);
  readonly #kinds = new Map<string, number>();
  #ownerCol = new Int32Array(1024);
  #kindCol = new Int32Array(1024);
  #updatedCol = new Float64Array(1024);
  /** 1 when the slot holds a live, recallable document. */
  #okCol = new Uint8Array(1024);

  /** Replaces whatever `entry.key` produced before with `docs`. */
  putFile(entry: Omit<FileEntry, 'docIds'>, docs: readonly IndexDocument[]): void {
    this.deleteFile(entry.key);
    const ids: string[] = [];
    for (const doc of docs) {
      this.putDoc({ ...doc, locator: doc.locator || entry.key });
      ids.push(doc.id);
    }
    this.files.set(entry.key, { ...entry, docIds: ids });
  }

  /**
   * Replaces whatever `entry.key` produced before with documents prepared elsewhere (a read worker):
   * `addTerms` adds each one's counted terms to the BM25 index and returns its slot.
   */
  putPrepared<D extends { readonly doc: Omit<StoredDoc, 'slot'> }>(
    entry: Omit<FileEntry, 'docIds'>,
    docs: readonly D[],
    addTerms: (prepared: D) => number,
  ): void {
    this.deleteFile(entry.key);
    const ids: string[] = [];
    for (const prepared of docs) {
      this.removeDoc(prepared.doc.id);
      const slot = addTerms(prepared);
      this.adopt({ ...prepared.doc, locator: prepared.doc.locator || entry.key, slot });
      ids.push(prepared.doc.id);
    }
    this.files.set(entry.key, { ...entry, docIds: ids });
  }

  /** Records a new mtime for a file whose bytes did not change. */
  touchFile(key: string, mtimeMs: number): void {
    const entry = this.files.get(key);
    if (entry) this.files.set(key, { ...entry, mtimeMs });
  }

  deleteFile(key: string): void {
    const entry = this.files.get(key);
    if (!entry) return;
    for (const id of entry.docIds) {
      const doc = this.docs.get(id);
      // Another file may have taken the id since (a rename): only remove what this file made.
      if (doc && doc.locator === key) this.removeDoc(id);
    }
    this.files.delete(key);
  }

  /** Adds (or replaces) one document. */
  putDoc(doc: IndexDocument): StoredDoc {
    this.removeDoc(doc.id);
    const slot = this.bm25.add(tokenize(searchableText(doc)));
    const { text, ...rest } = doc;
    const stored: StoredDoc = { ...rest, preview: previewOf(text), slot };
    this.adopt(stored);
    return stored;
  }

  /** Registers a stored document at its slot (the BM25 slot must exist): maps and columns. */
  adopt(doc: StoredDoc): void {
    this.docs.set(doc.id, doc);
    this.bySlot[doc.slot] = doc;
    const slot = doc.slot;
    if (slot >= this.#okCol.length) this.#growColumns(slot + 1);
    this.#ownerCol[slot] = intern(this.#owners, doc.owner);
    this.#kindCol[slot] = intern(this.#kinds, doc.kind);
    this.#updatedCol[slot] = doc.updatedMs;
    this.#okCol[slot] = isRecallable(doc) ? 1 : 0;
  }

  /** The ranking view over the columns (see RankView). */
  rankView(): RankView<StoredDoc> {
    return {
      size: this.bySlot.length,
      doc: (slot) => this.bySlot[slot],
      updatedMs: (slot) => this.#updatedCol[slot]!,
      scope: (options: ScopeOptions) => {
        const okCol = this.#okCol;
        const ownerCol = this.#ownerCol;
        const kindCol = this.#kindCol;
        const updated = this.#updatedCol;
        // A project nobody owns yet still sees the global notes (owner id 0).
        const project = options.project === undefined ? -1 : (this.#owners.get(options.project) ?? -2);
        const kinds =
          options.kinds && options.kinds.length > 0
            ? new Set(options.kinds.map((k) => this.#kinds.get(k) ?? -1))
            : undefined;
        const oldest = options.window > 0 ? options.now - options.window : Number.NEGATIVE_INFINITY;
        return (slot) =>
          okCol[slot] === 1 &&
          (project === -1 || ownerCol[slot] === 0 || ownerCol[slot] === project) &&
          (kinds === undefined || kinds.has(kindCol[slot]!)) &&
          updated[slot]! >= oldest;
      },
    };
  }

  #growColumns(need: number): void {
    let size = this.#okCol.length;
    while (size < need) size *= 2;
    const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.#ownerCol = grow(this.#ownerCol, (n) => new Int32Array(n));
    this.#kindCol = grow(this.#kindCol, (n) => new Int32Array(n));
    this.#updatedCol = grow(this.#updatedCol, (n) => new Float64Array(n));
    this.#okCol = grow(this.#okCol, (n) => new Uint8Array(n));
  }

  removeDoc(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.bm25.remove(old.slot);
    this.bySlot[old.slot] = undefined;
    this.#okCol[old.slot] = 0;
    this.docs.delete(id);
  }

  /** Renumbers slots so that no dead posting is kept (before writing a snapshot). */
  compact(): void {
    if (this.bm25.deadCount === 0 && this.bm25.slotCount === this.docs.size) return;
    const { index, remap } = this.bm25.compacted();
    const moved = [...this.docs.values()].map((doc) => ({ ...doc, slot: remap[doc.slot]! }));
    this.bm25 = index;
    this.bySlot = [];
    this.#okCol.fill(0);
    for (const doc of moved) this.adopt(doc);
  }
}

function intern(map: Map<string, number>, value: string): number {
  let id = map.get(value);
  if (id === undefined) map.set(value, (id = map.size));
  return id;
}
