import type { IndexDocument } from '../documents/document.js';
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
  const flat = text.slice(0, PREVIEW_CHARS * 3).replace(/\s+/g, ' ').trim();
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
    this.docs.set(doc.id, stored);
    this.bySlot[slot] = stored;
    return stored;
  }

  removeDoc(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.bm25.remove(old.slot);
    this.bySlot[old.slot] = undefined;
    this.docs.delete(id);
  }

  /** Renumbers slots so that no dead posting is kept (before writing a snapshot). */
  compact(): void {
    if (this.bm25.deadCount === 0 && this.bm25.slotCount === this.docs.size) return;
    const { index, remap } = this.bm25.compacted();
    const bySlot: StoredDoc[] = [];
    for (const [id, doc] of this.docs) {
      const slot = remap[doc.slot]!;
      const moved = { ...doc, slot };
      this.docs.set(id, moved);
      bySlot[slot] = moved;
    }
    this.bm25 = index;
    this.bySlot = bySlot;
  }
}
