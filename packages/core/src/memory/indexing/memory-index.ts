import type { StorageBackend } from '../../seam/backend.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { DerivedMaintenance, Tier } from '../../seam/tiers.js';
import { withVaultLock } from '../../write-protocol/vault-lock.js';
import { DEFAULT_LAYOUT, type MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import { MemoryArgumentError } from '../errors.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import { applyChanges, type ApplyJob } from './apply-changes.js';
import { startBuildPool, type ReadPool } from './read-pool.js';
import { embedPending } from './embed-pending.js';
import { KeyFeed } from './feed.js';
import type { SnapshotMeta } from './codec.js';
import { IndexState } from './index-state.js';
import {
  INDEX_LOCK_TIMEOUT_MS,
  type LoadStatus,
  type MemoryIndexOptions,
  type RefreshOptions,
  type RefreshReport,
} from './index-types.js';
import { IndexStore } from './index-store.js';
import { opWeight, type JournalOp } from './journal.js';
import { assertOutside, defaultIndexRoot, indexDirFor } from './location.js';
import { planRefresh } from './refresh-plan.js';
import { VectorCache } from './vectors.js';
import { walkSources, walkWarnings } from './walk.js';
import { infosOf, probeSources, progressFeed } from './probe-sources.js';
import { listSources, readChanges, readCursor, sourcesOfListing, writeCursor } from './change-cursor.js';

/**
 * The device-local memory index (LOCAL_INDEX tier): BM25 postings and document metadata derived
 * from the notes and progress files, kept in the user cache dir, never in the vault. Implements
 * `DerivedMaintenance`: `reindex` rebuilds from SOURCE, `changedSince` lists changed sources.
 * Every write to the index directory happens under its lock, after catching up with what another
 * process (a second editor window) wrote.
 */
export class MemoryIndex extends DerivedMaintenance {
  readonly backend: StorageBackend;
  readonly dir: string;
  readonly root: string;
  readonly layout: MemoryLayout;
  #state = new IndexState();
  #meta: SnapshotMeta | undefined;
  #journal: JournalOp[] = [];
  #journalBytes = 0;
  /** Whether the journal file holds exactly `#journal` and may be appended to. */
  #journalOnDisk = false;
  #stamp = '';
  #status: LoadStatus = 'missing';
  #vectors: VectorCache | undefined;
  #statusDetail = '';
  /** The read workers of the full build in progress, if it uses them. */
  #pool: ReadPool | undefined;
  readonly #store: IndexStore;
  readonly #options: MemoryIndexOptions;

  private constructor(options: MemoryIndexOptions, root: string, dir: string) {
    super();
    this.#options = options;
    this.backend = options.backend;
    this.root = root;
    this.dir = dir;
    this.layout = options.layout ?? DEFAULT_LAYOUT;
    this.#store = new IndexStore(dir);
  }

  /** Opens (loads) the index of a memory root. Never walks the notes; call `refresh()` for that. */
  static async open(options: MemoryIndexOptions): Promise<MemoryIndex> {
    const root = options.memoryRoot ?? options.backend.localRoot ?? options.backend.storeId;
    if (typeof root !== 'string' || root === '') {
      throw new MemoryArgumentError(
        'the memory index needs the memory root path (options.memoryRoot): this backend has no local root or store id',
      );
    }
    const dir = options.indexDir ?? indexDirFor(root, options.indexRoot ?? defaultIndexRoot(options.env));
    assertOutside(dir, root);
    const index = new MemoryIndex(options, root, dir);
    await index.#load();
    if (options.embedder) index.#vectors = await VectorCache.load(dir, options.embedder.id);
    return index;
  }

  /** How the last load went: `loaded`, or why the next refresh will rebuild. */
  get loadStatus(): LoadStatus {
    return this.#status;
  }

  get loadDetail(): string {
    return this.#statusDetail;
  }

  /** The in-memory index, for recall. Treat as read-only. */
  get state(): IndexState {
    return this.#state;
  }

  /** Vectors by fingerprint, when an embedding provider was given. */
  get vectors(): VectorCache | undefined {
    return this.#vectors;
  }

  /** The embedding provider the index was opened with, if any. */
  get embedder(): EmbeddingProvider | undefined {
    return this.#options.embedder;
  }

  /** Brings the index up to date with the notes: incremental, or a full rebuild when the index was unusable. */
  refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    return this.#locked(async () =>
      this.#status === 'loaded' ? this.#incremental(options) : this.#rebuild(this.#status, options),
    );
  }

  /** Re-reads just these locators (a watcher or a save path knows what changed). */
  update(locators: readonly Locator[]): Promise<RefreshReport> {
    return this.#locked(async () => {
      if (this.#status !== 'loaded') return this.#rebuild(this.#status);
      const { plan, infos, gone } = await probeSources(this.backend, this.layout, this.#state.files, locators);
      return this.#apply({
        state: this.#state,
        read: plan.read,
        infos,
        remove: gone,
        unchanged: plan.unchanged,
        conflictCopies: [],
      });
    });
  }

  /** `DerivedMaintenance.reindex`: full rebuild of the LOCAL_INDEX tier from SOURCE. */
  async reindex(tier: Tier = Tier.LOCAL_INDEX): Promise<void> {
    await this.rebuild(tier);
  }

  /** Full rebuild, with its report. */
  rebuild(tier: Tier = Tier.LOCAL_INDEX, options: RefreshOptions = {}): Promise<RefreshReport> {
    if (tier !== Tier.LOCAL_INDEX) {
      throw new MemoryArgumentError(
        `the memory index maintains the ${Tier.LOCAL_INDEX} tier only, not ${tier}; call reindex() without a tier`,
      );
    }
    return this.#locked(() => this.#rebuild('requested', options));
  }

  /** `DerivedMaintenance.changedSince`: source files (notes, progress) whose mtime is newer than `mtimeMs`. */
  async changedSince(mtimeMs: number): Promise<Locator[]> {
    const { files } = await listSources(this.backend, this.layout).walk;
    return files.filter((f) => f.mtimeMs > mtimeMs).map((f) => f.locator);
  }

  async #incremental(options: RefreshOptions = {}): Promise<RefreshReport> {
    const changes = this.backend.changeFeed;
    if (!changes) return this.#applyWalk(await walkSources(this.backend, this.layout), options);
    // A store with a change feed: what changed since the cursor saved with the index (change-cursor.ts).
    const batch = await readChanges(changes, await readCursor(this.dir, this.#meta?.snapshotId));
    const report = batch.full
      ? await this.#applyWalk(sourcesOfListing(batch.changes, this.layout), options)
      : await this.update(batch.changes.map((c) => c.locator)); // re-entrant lock: held already
    if (this.#meta) await writeCursor(this.dir, this.#meta.snapshotId, batch.cursor);
    return report;
  }

  /** Applies what a walk (or a full listing) saw, against what the index knows: new, changed, gone. */
  async #applyWalk(walk: Awaited<ReturnType<typeof walkSources>>, options: RefreshOptions): Promise<RefreshReport> {
    const plan = planRefresh(
      this.#state.fileStats(),
      walk.files.map((f) => ({ key: f.locator.key, mtimeMs: f.mtimeMs, size: f.size })),
    );
    const report = await this.#apply({
      state: this.#state,
      read: options.onProgress ? progressFeed(plan.read, options.onProgress) : plan.read,
      onProgress: options.onProgress,
      infos: infosOf(walk.files),
      remove: plan.remove,
      unchanged: plan.unchanged,
      conflictCopies: walk.conflictCopies.map((l) => l.key),
    });
    return { ...report, warnings: [...walkWarnings(walk), ...report.warnings] };
  }

  /**
   * Full build into a fresh state, swapped in only once complete (recall meanwhile uses the old one).
   * The walk feeds the readers as it goes (see KeyFeed); postings are inverted in bulk.
   */
  async #rebuild(reason: LoadStatus | 'requested', options: RefreshOptions = {}): Promise<RefreshReport> {
    const fresh = new IndexState();
    fresh.beginBulk();
    const feed = new KeyFeed();
    const onProgress = options.onProgress;
    if (onProgress)
      feed.onTake = (done, total, closed) => onProgress({ phase: 'reading', done, total, totalKnown: closed });
    const infos = new Map<string, Info>();
    this.#pool = startBuildPool(this.#options, this.backend.localRoot, this.layout, this.#limits);
    // Read workers stat the notes themselves: the walk lists directories and stats only what may be one.
    const listing = listSources(
      this.backend,
      this.layout,
      (files) => {
        for (const [key, info] of infosOf(files)) infos.set(key, info);
        feed.push(files.map((f) => f.locator.key));
      },
      { deferFileInfo: this.#pool !== undefined },
    );
    const walking = listing.walk.finally(() => feed.close());
    walking.catch(() => undefined); // handled below (through #apply); never an unhandled rejection meanwhile
    // Once every file is applied (and the walk is done: a walk that fails must not leave a partial
    // snapshot behind), the postings are inverted and the fresh state swapped in, before persisting.
    // Not earlier: recall keeps the old state until then, and every add stays in bulk mode.
    let readWorkers: number | undefined;
    const ready = async () => {
      await walking;
      // Every file is read: the workers' memory goes back before the postings are inverted and written.
      readWorkers = this.#pool?.size;
      await this.#closePool();
      fresh.endBulk();
      this.#state = fresh;
      this.#journal = [];
      this.#journalBytes = 0;
    };
    try {
      const report = await this.#apply({
        state: fresh,
        read: feed,
        infos,
        remove: [],
        unchanged: 0,
        conflictCopies: [],
        rebuilt: reason,
        beforePersist: ready,
        onProgress,
      });
      const [walk, cursor] = await Promise.all([walking, listing.cursor]);
      if (cursor !== undefined && this.#meta) await writeCursor(this.dir, this.#meta.snapshotId, cursor);
      return {
        ...report,
        read: feed.total,
        conflictCopies: walk.conflictCopies.map((l) => l.key),
        warnings: [...walkWarnings(walk), ...report.warnings],
        ...(readWorkers !== undefined ? { readWorkers } : {}),
      };
    } finally {
      await this.#closePool();
    }
  }

  async #closePool(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.close();
  }

  /** Reads, maps and applies changes, then persists them (journal, or a snapshot past the limit). */
  async #apply(job: ApplyJob): Promise<RefreshReport> {
    try {
      return await this.#applyUnsafe(job);
    } catch (error) {
      // Nothing half-applied stays in memory: go back to what is on disk.
      await this.#load();
      throw error;
    }
  }

  async #applyUnsafe(job: ApplyJob): Promise<RefreshReport> {
    const { state, read, infos, remove, rebuilt, onProgress } = job;
    const source = {
      backend: this.backend,
      layout: this.layout,
      toDocument: this.#options.toDocument,
      pool: this.#pool,
      limits: this.#limits,
    };
    const collect = { ops: rebuilt === undefined, fresh: this.#options.embedder !== undefined };
    const { ops, fresh, errors, indexed, touched } = await applyChanges(
      state,
      { read, remove, infos },
      source,
      collect,
    );
    const count = read instanceof KeyFeed ? read.total : read.length;
    onProgress?.({ phase: 'saving', done: count, total: count, totalKnown: true });
    await job.beforePersist?.();
    await this.#persist(ops, rebuilt !== undefined);
    const warnings: string[] = [];
    const { embedder } = this.#options;
    if (embedder && this.#vectors) {
      onProgress?.({ phase: 'embedding', done: count, total: count, totalKnown: true });
      warnings.push(...(await embedPending(this.#state, this.#vectors, embedder, fresh, source)));
      await this.#vectors.save(this.dir);
    }
    return {
      rebuilt,
      read: count,
      indexed,
      touched,
      removed: remove.length,
      unchanged: job.unchanged,
      documents: this.#state.docs.size,
      conflictCopies: job.conflictCopies,
      errors,
      warnings,
    };
  }

  async #persist(ops: readonly JournalOp[], snapshot: boolean): Promise<void> {
    const limit = this.#options.journalLimitBytes ?? 1 << 20;
    const weight = ops.reduce((n, op) => n + opWeight(op), 0);
    if (snapshot || !this.#meta || this.#journalBytes + weight > limit) {
      this.#meta = await this.#store.writeSnapshot(this.#state, this.root, this.#now());
      this.#journal = [];
      this.#journalBytes = 0;
      this.#journalOnDisk = false;
      this.#status = 'loaded';
      this.#statusDetail = '';
    } else if (ops.length > 0) {
      this.#journal.push(...ops);
      this.#journalBytes += weight;
      if (this.#journalOnDisk) await this.#store.appendJournal(ops);
      else await this.#store.writeJournal(this.#meta.snapshotId, this.#journal);
      this.#journalOnDisk = true;
    }
    this.#stamp = await this.#store.stamp();
  }

  async #load(): Promise<void> {
    const loaded = await this.#store.load(this.root);
    this.#stamp = await this.#store.stamp();
    if (loaded.status !== 'loaded') {
      this.#state = new IndexState();
      this.#meta = undefined;
      this.#journal = [];
      this.#journalOnDisk = false;
      this.#status = loaded.status;
      this.#statusDetail = loaded.detail;
      return;
    }
    this.#state = loaded.state;
    this.#meta = loaded.meta;
    this.#journal = [];
    this.#journalBytes = 0;
    this.#replay(loaded.journal?.ops ?? []);
    this.#journalOnDisk = loaded.journal?.clean ?? false;
    this.#status = 'loaded';
    this.#statusDetail = '';
  }

  #replay(ops: readonly JournalOp[]): void {
    for (const op of ops) {
      if (op.op === 'put') this.#state.putFile(op.file, op.docs);
      else if (op.op === 'touch') this.#state.touchFile(op.key, op.mtimeMs);
      else this.#state.deleteFile(op.key);
      this.#journal.push(op);
      this.#journalBytes += opWeight(op);
    }
  }

  /** Catches up with another process's writes: its new journal ops, or its new snapshot. */
  async #catchUp(): Promise<void> {
    const stamp = await this.#store.stamp();
    if (stamp === this.#stamp) return;
    const journal = this.#meta ? await this.#store.readJournal(this.#meta.snapshotId) : undefined;
    const sameSnapshot = this.#meta !== undefined && stamp.split('|')[0] === this.#stamp.split('|')[0];
    if (sameSnapshot && journal && journal.ops.length >= this.#journal.length) {
      this.#replay(journal.ops.slice(this.#journal.length));
      this.#journalOnDisk = journal.clean;
      this.#stamp = stamp;
      return;
    }
    await this.#load();
  }

  /** Reloads from disk if another process changed the index. Cheap (two stats) when nothing changed. */
  async sync(): Promise<void> {
    await this.#catchUp();
  }

  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const lockOptions = {
      ...(this.#options.lockRoot ? { lockRoot: this.#options.lockRoot } : {}),
      timeoutMs: this.#options.lockTimeoutMs ?? INDEX_LOCK_TIMEOUT_MS,
    };
    return withVaultLock(
      this.dir,
      async () => {
        await this.#catchUp();
        return fn();
      },
      lockOptions,
    );
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  get #limits(): DocumentLimits {
    return { maxNoteChars: this.#options.maxNoteChars };
  }
}
