import type { DocStore, StoredDoc } from './doc-store.js';
import type { FileEntry, FileTable } from './file-table.js';

/** What the views read of an IndexState. */
export interface ViewSource {
  readonly bm25: { readonly liveCount: number; readonly live: Uint8Array };
  readonly store: DocStore;
  readonly fileTable: FileTable;
  slotOf(id: string): number | undefined;
  liveSlots(): Iterable<number>;
}

/**
 * Read-only Map views of an IndexState's documents (by id) and files (by key). The state keeps
 * columns, not objects: each `get` decodes one entry; iterating decodes them all (for tests, the
 * editors' document count, the embedder's pass — never for recall).
 */
abstract class MapView<V> {
  constructor(protected readonly state: ViewSource) {}
  abstract get size(): number;
  abstract get(key: string): V | undefined;
  abstract has(key: string): boolean;
  abstract entries(): IterableIterator<[string, V]>;

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }
  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
  forEach(fn: (value: V, key: string) => void): void {
    for (const [key, value] of this.entries()) fn(value, key);
  }
}

export class DocsView extends MapView<StoredDoc> {
  get size(): number {
    return this.state.bm25.liveCount;
  }
  get(id: string): StoredDoc | undefined {
    const slot = this.state.slotOf(id);
    return slot === undefined ? undefined : this.state.store.doc(slot);
  }
  has(id: string): boolean {
    return this.state.slotOf(id) !== undefined;
  }
  *entries(): IterableIterator<[string, StoredDoc]> {
    for (const slot of this.state.liveSlots()) {
      const doc = this.state.store.doc(slot);
      yield [doc.id, doc];
    }
  }
}

export class FilesView extends MapView<FileEntry> {
  get size(): number {
    return this.state.fileTable.count;
  }
  get(key: string): FileEntry | undefined {
    const row = this.state.fileTable.row(key);
    return row === undefined ? undefined : this.#entry(key, row);
  }
  has(key: string): boolean {
    return this.state.fileTable.row(key) !== undefined;
  }
  override *keys(): IterableIterator<string> {
    const t = this.state.fileTable;
    for (const row of t.liveRows()) yield t.keys.get(row)!;
  }
  *entries(): IterableIterator<[string, FileEntry]> {
    const t = this.state.fileTable;
    for (const row of t.liveRows()) {
      const key = t.keys.get(row)!;
      yield [key, this.#entry(key, row)];
    }
  }

  #entry(key: string, row: number): FileEntry {
    const t = this.state.fileTable;
    const first = t.firstSlot.data[row]!;
    const docIds: string[] = [];
    for (let slot = first; slot < first + t.docCount.data[row]!; slot++)
      if (this.state.bm25.live[slot]) docIds.push(this.state.store.id(slot));
    return { key, mtimeMs: t.mtime.data[row]!, size: t.size.data[row]!, hash: t.hashHex(row), docIds };
  }
}
