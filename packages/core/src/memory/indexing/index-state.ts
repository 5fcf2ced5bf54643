import { isRecallable, type IndexDocument } from '../documents/document.js';
import type { RankView } from '../documents/rank-contract.js';
import { Bm25Index, type Bm25Parts } from './bm25.js';
import {
  ALWAYS_LOAD,
  DocStore,
  encodeRecord,
  FOREIGN_ID,
  ownId,
  RECALLABLE,
  SUPERSEDES,
  type FrozenDocs,
  type StoredDoc,
} from './doc-store.js';
import { FileTable, type FileEntry, type FrozenFiles } from './file-table.js';
import { DocsView, FilesView } from './index-views.js';
import { SupersededKeys } from './supersession.js';
import { columnRankView } from './column-rank-view.js';
import { previewOf, searchableFields } from './searchable.js';
import { TermScanner } from './term-scanner.js';
import type { KnownFiles } from './refresh-plan.js';
import type { SnapshotFile } from './snapshot-pages.js';

export type { StoredDoc } from './doc-store.js';
export type { FileEntry } from './file-table.js';
export { PREVIEW_CHARS, previewOf, searchableFields, searchableText } from './searchable.js';

/**
 * Documents prepared elsewhere (a read worker), as columns: document i's record (see encodeRecord),
 * owner, kind, status, dates, confidence (NaN when none), always-load and supersedes flags.
 */
export interface DocColumns {
  readonly records: readonly string[];
  readonly owners: readonly string[];
  readonly kinds: readonly string[];
  readonly statuses: readonly string[];
  readonly created: Float64Array;
  readonly updated: Float64Array;
  readonly confidence: Float64Array;
  /** DocStore flags: ALWAYS_LOAD, SUPERSEDES, FOREIGN_ID. */
  readonly flags: Uint8Array;
}

/**
 * The in-memory index: files, documents (columns by slot) and the BM25 postings. Mutated only through
 * `putFile`/`putColumns`/`deleteFile`/`touchFile`, which keep them consistent, including which notes are
 * superseded (a live note naming another in `supersedes:` keeps the other from being recalled).
 */
export class IndexState {
  bm25: Bm25Index;
  readonly store: DocStore;
  readonly fileTable: FileTable;
  readonly docs: DocsView;
  readonly files: FilesView;
  /** Id → live slot; built on first need (a loaded index decodes no id until then). */
  #ids: Map<string, number> | undefined;
  #superseded: SupersededKeys | undefined;
  /** Whether a document with a foreign id (see FOREIGN_ID) was ever seen; undefined until asked. */
  #foreign: boolean | undefined;
  #scanner: TermScanner | undefined;
  /** Recallable by status, per status symbol. */
  #statusOk: number[] = [];
  /** The field `#flag` marks terms of (putFile scans a document's fields with it). */
  #field = 0;
  readonly #flag = (id: number) => this.bm25.flagTerm(id, this.#field);

  /** The snapshot file this state's frozen arrays page in from, while any page is unread. */
  readonly #file: SnapshotFile | undefined;

  constructor(parts?: { bm25: Bm25Parts; docs: FrozenDocs; files: FrozenFiles; file?: SnapshotFile | undefined }) {
    this.#file = parts?.file;
    this.bm25 = new Bm25Index(parts?.bm25);
    this.store = new DocStore(parts?.docs);
    this.fileTable = new FileTable(parts?.files);
    this.docs = new DocsView(this);
    this.files = new FilesView(this);
  }

  /**
   * Reads whatever of the snapshot this state was loaded from is still unread, and lets go of the file:
   * before writing a snapshot of this state (which replaces that file), or to hold the index whole.
   */
  readAll(): void {
    this.#file?.readAll();
  }

  /** Starts a bulk build into this empty state (see Bm25Index.beginBulk). */
  beginBulk(): void {
    this.bm25.beginBulk();
  }

  /** Ends a bulk build: inverts the postings and settles which notes are superseded. */
  endBulk(): void {
    this.bm25.endBulk();
    this.#settleSupersession();
  }

  /** The live slot of a document id, or undefined. */
  slotOf(id: string): number | undefined {
    return this.#idMap().get(id);
  }

  /** The files as rows, for comparing a walk with (see `planWalk`). */
  knownFiles(): KnownFiles {
    const t = this.fileTable;
    return {
      row: (key) => t.row(key),
      mtime: (row) => t.mtime.data[row]!,
      size: (row) => t.size.data[row]!,
      rows: t.rows,
      live: (row) => t.live.data[row] === 1,
      key: (row) => t.keys.get(row)!,
    };
  }

  /** The live document at a slot, or undefined. */
  doc(slot: number): StoredDoc | undefined {
    return slot < this.bm25.slotCount && this.bm25.live[slot] ? this.store.doc(slot) : undefined;
  }

  /** Live slots, ascending. */
  *liveSlots(): Generator<number> {
    const live = this.bm25.live;
    for (let slot = 0; slot < this.bm25.slotCount; slot++) if (live[slot]) yield slot;
  }

  /** Replaces whatever `entry.key` produced before with `docs` (tokenized here). */
  putFile(entry: Omit<FileEntry, 'docIds'>, docs: readonly IndexDocument[]): void {
    this.deleteFile(entry.key);
    const scanner = (this.#scanner ??= new TermScanner((t) => this.bm25.terms.intern(t)));
    const count = (id: number) => this.bm25.countTerm(id);
    const first = this.bm25.slotCount;
    for (const doc of docs) {
      const full = { ...doc, locator: doc.locator || entry.key };
      const foreign = !ownId(full);
      if (foreign) this.#foreign = true;
      // Another file may hold this id only where ids are not keys (a custom mapper): only then look.
      const old = foreign || this.#hasForeign() ? this.slotOf(full.id) : undefined;
      if (old !== undefined) this.#removeSlot(old);
      for (const [field, text] of searchableFields(full)) {
        this.#field = field;
        scanner.scan(text, this.#flag);
      }
      const length = scanner.scan(full.text, count);
      const { text, ...rest } = full;
      const stored = { ...rest, preview: previewOf(text) };
      const slot = this.bm25.addCounted(length);
      const supersedes = stored.supersedes !== undefined && stored.supersedes !== '';
      this.store.put(
        slot,
        stored.owner,
        stored.kind,
        stored.status,
        stored.createdMs,
        stored.updatedMs,
        stored.confidence ?? Number.NaN,
        stored.alwaysLoad,
        encodeRecord(stored, stored.preview),
        supersedes,
        foreign,
      );
      this.#adopted(slot, stored.id, supersedes ? stored.supersedes : undefined);
    }
    this.fileTable.add(entry.key, entry.mtimeMs, entry.size, entry.hash, first, docs.length);
  }

  /**
   * Replaces whatever `entry.key` produced before with documents `from..to` of columns prepared
   * elsewhere (a read worker of a cold build, whose documents' ids belong to their file alone — no id
   * is looked up): `addTerms(i)` adds document i's counted terms to the BM25 index and returns its slot.
   */
  putColumns(
    entry: { key: string; mtimeMs: number; size: number; hash: string | Uint8Array },
    docs: DocColumns,
    from: number,
    to: number,
    addTerms: (i: number) => number,
  ): void {
    this.deleteFile(entry.key);
    const first = this.bm25.slotCount;
    for (let i = from; i < to; i++) {
      const slot = addTerms(i);
      const flags = docs.flags[i]!;
      const record = docs.records[i]!;
      this.store.put(
        slot,
        docs.owners[i]!,
        docs.kinds[i]!,
        docs.statuses[i]!,
        docs.created[i]!,
        docs.updated[i]!,
        docs.confidence[i]!,
        (flags & ALWAYS_LOAD) !== 0,
        record,
        (flags & SUPERSEDES) !== 0,
        (flags & FOREIGN_ID) !== 0,
      );
      if (flags & FOREIGN_ID) this.#foreign = true;
      if (this.#ids || !this.bm25.bulk) {
        const doc = this.store.doc(slot);
        this.#adopted(slot, doc.id, doc.supersedes);
      }
    }
    this.fileTable.add(entry.key, entry.mtimeMs, entry.size, entry.hash, first, to - from);
  }

  /** Records a new mtime for a file whose bytes did not change. */
  touchFile(key: string, mtimeMs: number): void {
    const row = this.fileTable.row(key);
    if (row !== undefined) this.fileTable.mtime.data[row] = mtimeMs;
  }

  deleteFile(key: string): void {
    const row = this.fileTable.row(key);
    if (row === undefined) return;
    const first = this.fileTable.firstSlot.data[row]!;
    const end = first + this.fileTable.docCount.data[row]!;
    // A slot of the run that is dead was taken over by another file since (a rename): not ours.
    for (let slot = first; slot < end; slot++) if (this.bm25.live[slot]) this.#removeSlot(slot);
    this.fileTable.drop(row);
  }

  /** Adds (or replaces) one document, as a file of its own named by its id. */
  putDoc(doc: IndexDocument): StoredDoc {
    this.putFile({ key: doc.id, mtimeMs: 0, size: 0, hash: doc.fingerprint }, [doc]);
    return this.store.doc(this.slotOf(doc.id)!);
  }

  removeDoc(id: string): void {
    const slot = this.slotOf(id);
    if (slot !== undefined) this.#removeSlot(slot);
  }

  /** The ranking view over the columns (see RankView). */
  rankView(): RankView<StoredDoc> {
    return columnRankView(this.store, this.bm25.slotCount, (slot) => this.doc(slot));
  }

  /** Live documents flagged always-load. */
  alwaysLoadDocs(): StoredDoc[] {
    const out: StoredDoc[] = [];
    for (const slot of this.liveSlots()) if (this.store.flags.data[slot]! & ALWAYS_LOAD) out.push(this.store.doc(slot));
    return out;
  }

  /** Registers a slot just written: the id map, and (outside a bulk build) supersession and its flag. */
  #adopted(slot: number, id: string, supersedes: string | undefined): void {
    this.#ids?.set(id, slot);
    if (this.bm25.bulk) return; // settled once at endBulk()
    const superseded = this.#supersession();
    if (supersedes)
      for (const key of superseded.add(supersedes, id, this.store.updated.data[slot]))
        this.#settle(this.#noteSlot(key));
    this.#settle(slot);
  }

  /** The live slot of the note whose file key is `key` (a note's id is its key), without the id map. */
  #noteSlot(key: string): number | undefined {
    const row = this.fileTable.row(key);
    if (row === undefined || this.fileTable.docCount.data[row] === 0) return undefined;
    const slot = this.fileTable.firstSlot.data[row]!;
    return this.bm25.live[slot] && this.store.id(slot) === key ? slot : this.slotOf(key);
  }

  #hasForeign(): boolean {
    if (this.#foreign === undefined) {
      const flags = this.store.flags.data;
      this.#foreign = false;
      for (const slot of this.liveSlots()) if (flags[slot]! & FOREIGN_ID) this.#foreign = true;
    }
    return this.#foreign;
  }

  #removeSlot(slot: number): void {
    const store = this.store;
    const supersedes = (store.flags.data[slot]! & SUPERSEDES) !== 0;
    const id = store.id(slot);
    this.bm25.remove(slot);
    store.flags.data[slot]! &= ~RECALLABLE;
    if (this.#ids?.get(id) === slot) this.#ids.delete(id);
    if (supersedes && this.#superseded) {
      const value = store.doc(slot).supersedes!;
      for (const key of this.#superseded.remove(value, id, store.updated.data[slot])) this.#settle(this.#noteSlot(key));
    }
  }

  /** Sets a slot's RECALLABLE flag from its liveness, status and whether a live note supersedes it. */
  #settle(slot: number | undefined): void {
    if (slot === undefined) return;
    const store = this.store;
    const status = store.status.data[slot]!;
    let ok = this.#statusOk[status];
    if (ok === undefined) ok = this.#statusOk[status] = isRecallable({ status: store.statuses.list[status]! }) ? 1 : 0;
    const superseded =
      this.#superseded !== undefined &&
      this.#superseded.size > 0 &&
      this.#superseded.hides(store.id(slot), store.updated.data[slot]!);
    if (ok && this.bm25.live[slot] && !superseded) store.flags.data[slot]! |= RECALLABLE;
    else store.flags.data[slot]! &= ~RECALLABLE;
  }

  #idMap(): Map<string, number> {
    if (!this.#ids) {
      this.#ids = new Map();
      for (const slot of this.liveSlots()) this.#ids.set(this.store.id(slot), slot);
    }
    return this.#ids;
  }

  /** The superseded keys, gathered from the live documents that name one on first need. */
  #supersession(): SupersededKeys {
    if (!this.#superseded) {
      this.#superseded = new SupersededKeys();
      const flags = this.store.flags.data;
      for (const slot of this.liveSlots())
        if (flags[slot]! & SUPERSEDES)
          this.#superseded.add(this.store.doc(slot).supersedes!, this.store.id(slot), this.store.updated.data[slot]);
    }
    return this.#superseded;
  }

  /** After a bulk build: every slot's RECALLABLE flag, with supersession settled over the whole index. */
  #settleSupersession(): void {
    this.#superseded = undefined;
    const flags = this.store.flags.data;
    let any = false;
    for (const slot of this.liveSlots()) if (flags[slot]! & SUPERSEDES) any = true;
    if (any) this.#supersession();
    for (const slot of this.liveSlots()) this.#settle(slot);
  }
}
