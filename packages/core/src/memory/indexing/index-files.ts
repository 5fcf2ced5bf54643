import type { SnapshotMeta } from './codec.js';
import { IndexState } from './index-state.js';
import { readCursor, writeCursor } from './change-cursor.js';
import { IndexStore } from './index-store.js';
import type { LoadStatus } from './index-types.js';
import { opWeight, type JournalOp } from './journal.js';
import { applyMarks, type MarksDelta, type SourceMarks } from './source-marks.js';

/** How a persist went: written to the journal, folded into a new snapshot, or left to another (`deferred`). */
export type Persisted = 'journal' | 'snapshot' | 'nothing' | 'deferred';

/**
 * The index's files as one process sees them: the snapshot it loaded, the journal ops since (its own and
 * other processes'), the source marks they add up to, and a stamp telling whether another process wrote
 * since. Every method that writes is called under the index directory's lock.
 */
export class IndexFiles {
  readonly store: IndexStore;
  #meta: SnapshotMeta | undefined;
  #journal: JournalOp[] = [];
  #journalBytes = 0;
  /** Whether the journal file holds exactly `#journal` and may be appended to. */
  #journalOnDisk = false;
  #stamp = '';
  #status: LoadStatus = 'missing';
  #detail = '';
  #marks: SourceMarks = {};

  constructor(
    dir: string,
    private readonly root: string,
    private readonly limitBytes: number,
    private readonly now: () => number,
    /** Check the snapshot's checksum on load (see `MemoryIndexOptions.verify`). */
    private readonly verify: boolean = true,
  ) {
    this.store = new IndexStore(dir);
  }

  get status(): LoadStatus {
    return this.#status;
  }

  get detail(): string {
    return this.#detail;
  }

  /** Changes whenever this or another process writes the index (see `IndexStore.stamp`). */
  get stamp(): string {
    return this.#stamp;
  }

  /** The id of the snapshot loaded or last written (what a change-feed cursor is tied to), if any. */
  get snapshotId(): string | undefined {
    return this.#meta?.snapshotId;
  }

  /**
   * Whether the journal holds changes to documents (not only marks): what a process that opens the index
   * replays into the snapshot's columns, reading whole each one it appends to (see `compact`).
   */
  get changesPending(): boolean {
    return this.#journal.some((op) => op.op !== 'marks');
  }

  /**
   * Folds the journal's changes into a new snapshot of `state` (under the lock), so that a process
   * opening the index replays none. Replaying is cheap in a long-lived process, not in an answer's: the
   * first change a new process replays reads whole every column it appends to (~140 ms at 100 000 notes,
   * where opening the snapshot alone takes ~15 ms), and the journal grows to 1 MiB before a write folds
   * it. Writes nothing when the journal holds marks only. A store's change cursor moves to the new
   * snapshot (it describes the same state). Returns whether a snapshot was written.
   */
  async compact(state: IndexState): Promise<boolean> {
    if (!this.#meta || !this.changesPending) return false;
    const cursor = await readCursor(this.store.dir, this.snapshotId);
    await this.persist(state, [], { snapshot: true });
    if (cursor !== undefined) await writeCursor(this.store.dir, this.snapshotId!, cursor);
    return true;
  }

  /** What the persisted index knows of its sources (`{}` before a build). */
  get marks(): SourceMarks {
    return this.#marks;
  }

  /** Loads the snapshot and its journal; the state to use (empty when there is no usable index). */
  async load(): Promise<IndexState> {
    // An unverified open is a short-lived process's answer (`MemoryIndexOptions.verify`): it exits soon,
    // so the snapshot's region need not press V8's collector (see `SnapshotFile`).
    const loaded = await this.store.load(this.root, { verify: this.verify, uncounted: !this.verify });
    this.#stamp = await this.store.stamp();
    this.#journal = [];
    this.#journalBytes = 0;
    if (loaded.status !== 'loaded') {
      this.#meta = undefined;
      this.#journalOnDisk = false;
      this.#marks = {};
      this.#status = loaded.status;
      this.#detail = loaded.detail;
      return new IndexState();
    }
    this.#meta = loaded.meta;
    this.#marks = loaded.meta.marks ?? {};
    this.#replay(loaded.state, loaded.journal?.ops ?? []);
    this.#journalOnDisk = loaded.journal?.clean ?? false;
    this.#status = 'loaded';
    this.#detail = '';
    return loaded.state;
  }

  /** `state` caught up with another process's writes (its journal ops replayed), or the index reloaded. */
  async catchUp(state: IndexState): Promise<IndexState> {
    const stamp = await this.store.stamp();
    if (stamp === this.#stamp) return state;
    const journal = this.#meta ? await this.store.readJournal(this.#meta.snapshotId) : undefined;
    const sameSnapshot = this.#meta !== undefined && stamp.split('|')[0] === this.#stamp.split('|')[0];
    if (sameSnapshot && journal && journal.ops.length >= this.#journal.length) {
      this.#replay(state, journal.ops.slice(this.#journal.length));
      this.#journalOnDisk = journal.clean;
      this.#stamp = stamp;
      return state;
    }
    return this.load();
  }

  /**
   * Forgets that the state matches the files: the next `catchUp` reloads them. For a state changed in
   * memory without persisting (an answer that could not take the lock): nothing it holds beyond the
   * files may be persisted by a later change, which would record marks past changes never written.
   */
  invalidate(): void {
    this.#stamp = '';
  }

  /** A rebuilt state replaces everything: the journal starts over with the next snapshot. */
  restart(): void {
    this.#journal = [];
    this.#journalBytes = 0;
  }

  /**
   * Persists `ops` and then `marks`: appended to the journal, or the whole `state` as a new snapshot (a
   * rebuild, no snapshot yet, or a journal past its limit). With `journalOnly`, a change that would need
   * a snapshot is not written (`deferred`): an answer leaves that to a background refresh.
   */
  async persist(
    state: IndexState,
    changes: readonly JournalOp[],
    options: { snapshot: boolean; marks?: MarksDelta | undefined; journalOnly?: boolean },
  ): Promise<Persisted> {
    const ops = options.marks ? [...changes, { op: 'marks' as const, marks: options.marks }] : changes;
    const weight = ops.reduce((n, op) => n + opWeight(op), 0);
    const snapshot = options.snapshot || !this.#meta || this.#journalBytes + weight > this.limitBytes;
    if (snapshot && options.journalOnly) return 'deferred';
    let done: Persisted = 'nothing';
    if (snapshot) {
      const marks = options.marks ? applyMarks(this.#marks, options.marks) : this.#marks;
      this.#meta = await this.store.writeSnapshot(state, this.root, this.now(), marks);
      this.#marks = marks;
      this.#journal = [];
      this.#journalBytes = 0;
      this.#journalOnDisk = false;
      this.#status = 'loaded';
      this.#detail = '';
      done = 'snapshot';
    } else if (ops.length > 0) {
      this.#journal.push(...ops);
      this.#journalBytes += weight;
      if (options.marks) this.#marks = applyMarks(this.#marks, options.marks);
      if (this.#journalOnDisk) await this.store.appendJournal(ops);
      else await this.store.writeJournal(this.#meta!.snapshotId, this.#journal);
      this.#journalOnDisk = true;
      done = 'journal';
    }
    this.#stamp = await this.store.stamp();
    return done;
  }

  /**
   * Records a change as `persisting` says (see `persist`); when nothing was written (an answer without the
   * lock, or a change that needs a snapshot an answer does not write), the stamp is forgotten, so that the
   * state is reloaded before anything else is persisted from it.
   */
  async record(state: IndexState, ops: readonly JournalOp[], snapshot: boolean, persisting: Persisting): Promise<void> {
    const marks = typeof persisting.marks === 'function' ? persisting.marks() : persisting.marks;
    const done = persisting.persist
      ? await this.persist(state, ops, { snapshot, marks, journalOnly: persisting.journalOnly })
      : 'deferred';
    if (done === 'deferred') this.invalidate();
  }

  #replay(state: IndexState, ops: readonly JournalOp[]): void {
    for (const op of ops) {
      if (op.op === 'put') state.putFile(op.file, op.docs);
      else if (op.op === 'touch') state.touchFile(op.key, op.mtimeMs);
      else if (op.op === 'del') state.deleteFile(op.key);
      else this.#marks = applyMarks(this.#marks, op.marks);
      this.#journal.push(op);
      this.#journalBytes += opWeight(op);
    }
  }
}

/** How a change is persisted: the marks it brings the index to (a function: known once a walk is done). */
export interface Persisting {
  readonly marks?: MarksDelta | (() => MarksDelta) | undefined;
  readonly persist: boolean;
  /** Never write a snapshot (an answer's foreground): a change that needs one is left to a background refresh. */
  readonly journalOnly?: boolean;
}
