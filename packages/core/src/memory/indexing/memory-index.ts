import type { StorageBackend } from '../../seam/backend.js';
import { Locator } from '../../seam/locator.js';
import { DerivedMaintenance, Tier } from '../../seam/tiers.js';
import { withVaultLock } from '../../write-protocol/vault-lock.js';
import type { ToDocument } from '../documents/document.js';
import { DEFAULT_LAYOUT, type MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import { MemoryArgumentError } from '../errors.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import { LockTimeout } from '../../write-protocol/errors.js';
import { applyChanges, jobReport, type ApplyJob } from './apply-changes.js';
import type { ReadPool } from './read-pool.js';
import { IndexEmbeddings } from './index-embeddings.js';
import { KeyFeed } from './feed.js';
import { IndexFiles, type Persisting } from './index-files.js';
import { NO_MAPPER, resolveMapper } from './note-mapper.js';
import { IndexState } from './index-state.js';
import {
  INDEX_LOCK_TIMEOUT_MS,
  nothingChanged,
  type LoadStatus,
  type MemoryIndexOptions,
  type RefreshOptions,
  type RefreshReport,
} from './index-types.js';
import { racyFoldersAgain, scanChanges, type CaughtUp } from './catch-up.js';
import { indexPlace } from './location.js';
import { planWalk } from './refresh-plan.js';
import type { VectorCache } from './vectors.js';
import { walkSources, walkWarnings, type WalkResult } from './walk.js';
import { beginWalk, marksChange, revalidationDue, walkMarks, type SourceMarks } from './source-marks.js';
import { infosOf, probeSources, progressFeed } from './probe-sources.js';
import {
  feedingListing,
  listSources,
  readChanges,
  readCursor,
  sourcesOfListing,
  writeCursor,
} from './change-cursor.js';

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
  #embeddings: IndexEmbeddings | undefined;
  /** The read workers of the full build in progress, if it uses them. */
  #pool: ReadPool | undefined;
  readonly #files: IndexFiles;
  readonly #options: MemoryIndexOptions;

  private constructor(options: MemoryIndexOptions, root: string, dir: string) {
    super();
    this.#options = options;
    this.backend = options.backend;
    this.root = root;
    this.dir = dir;
    this.layout = options.layout ?? DEFAULT_LAYOUT;
    const verify = options.verify !== 'structure';
    this.#files = new IndexFiles(dir, root, options.journalLimitBytes ?? 1 << 20, () => this.now(), verify);
  }

  /** Opens (loads) the index of a memory root. Never walks the notes; call `refresh()` for that. */
  static async open(options: MemoryIndexOptions): Promise<MemoryIndex> {
    const { root, dir } = indexPlace(options);
    const index = new MemoryIndex(options, root, dir);
    index.#state = await index.#files.load();
    if (options.embedder) index.#embeddings = await IndexEmbeddings.open(index, options.embedder);
    return index;
  }

  /** How the last load went: `loaded`, or why the next refresh will rebuild. */
  get loadStatus(): LoadStatus {
    return this.#files.status;
  }

  get loadDetail(): string {
    return this.#files.detail;
  }

  /** What the index knows of its sources beyond the files (see source-marks.ts). */
  get marks(): SourceMarks {
    return this.#files.marks;
  }

  /** The lock root of the index directory's locks (undefined: agentm's default). */
  get lockRoot(): string | undefined {
    return this.#options.lockRoot;
  }

  /** The in-memory index, for recall. Treat as read-only. */
  get state(): IndexState {
    return this.#state;
  }

  /** Vectors by fingerprint, when an embedding provider was given. */
  get vectors(): VectorCache | undefined {
    return this.#embeddings?.vectors;
  }

  /** The embedding provider the index was opened with, guarded (a failing endpoint warns once), if any. */
  get embedder(): EmbeddingProvider | undefined {
    return this.#embeddings?.embedder;
  }

  /** The index's vectors and the runs that compute them, when an embedding provider was given. */
  get embeddings(): IndexEmbeddings | undefined {
    return this.#embeddings;
  }

  /** Changes whenever this or another process writes the index. */
  get stamp(): string {
    return this.#files.stamp;
  }

  /** Brings the index up to date with the notes: incremental, or a full rebuild when the index was unusable. */
  refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    return this.#locked(async () => {
      const report =
        this.loadStatus === 'loaded' ? await this.#incremental(options) : await this.#rebuild(this.loadStatus, options);
      const racy = await racyFoldersAgain(this.#state, this.marks, this.#source());
      if (racy) await this.#applyCaughtUp(racy, true);
      return report;
    });
  }

  /** Re-reads just these locators (a watcher or a save path knows what changed). */
  update(locators: readonly Locator[]): Promise<RefreshReport> {
    return this.#locked(async () => {
      if (this.loadStatus !== 'loaded') return this.#rebuild(this.loadStatus);
      const { plan, infos, gone } = await probeSources(this.backend, this.layout, this.#state.files, locators);
      return this.#apply(
        { state: this.#state, read: plan.read, infos, remove: gone, unchanged: plan.unchanged, conflictCopies: [] },
        { persist: true },
      );
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

  /**
   * Catches up with what changed since the index's marks without walking every note (see catch-up.ts):
   * the store's change log (every AgentM writer's keys) and the folders whose mtime moved. A note AgentM
   * wrote is always in the next answer; an edit in place by another program waits for a full walk
   * (`refresh`, which an answer asks for in the background when `revalidationDue`). Falls back to
   * `refresh()` when the index has no marks to catch up from (not built, built by an older AgentM, or
   * its place in the change log lost). Persists what it found when the index's lock is free at once and
   * no new snapshot is needed; otherwise the change is applied in memory only, for this answer.
   */
  async refreshChanges(options: RefreshOptions = {}): Promise<RefreshReport> {
    // A store with a change feed (a database) is caught up from its cursor by `refresh` itself.
    if (this.loadStatus !== 'loaded' || this.backend.changeFeed) return this.refresh(options);
    const scan = () => scanChanges(this.#state, this.marks, this.#source());
    const first = await scan();
    if (first === undefined) return this.refresh(options);
    if (first.empty) return nothingChanged(this.#state.docs.size);
    try {
      // Scanned again under the lock: another process may have caught up (or rebuilt) meanwhile.
      const report = await this.#locked(async () => {
        const found = await scan();
        return found === undefined
          ? undefined
          : found.empty
            ? nothingChanged(this.#state.docs.size)
            : this.#applyCaughtUp(found, true);
      }, 0);
      return report ?? (await this.refresh(options));
    } catch (error) {
      if (!(error instanceof LockTimeout)) throw error;
      // Another process holds the index (a background walk): answer from memory, persist nothing.
      return this.#applyCaughtUp(first, false);
    }
  }

  /** Whether the journal holds changes `compact` would fold into a snapshot (a background refresh is due). */
  get changesPending(): boolean {
    return this.#files.changesPending;
  }

  /** Folds the journal's changes into a new snapshot (see `IndexFiles.compact`): the background refresh's last step. */
  compact(): Promise<boolean> {
    return this.#locked(async () => this.loadStatus === 'loaded' && (await this.#files.compact(this.#state)));
  }

  /**
   * Whether a full walk in the background is due (see `revalidationDue`): the last one began more than
   * `afterMs` ago (or ten walks' time on a large store). Always false for an index that is not built.
   */
  revalidationDue(afterMs: number): boolean {
    return this.loadStatus === 'loaded' && revalidationDue(this.marks, this.now(), afterMs);
  }

  /** Applies what a catch-up found: a journal entry (never a new snapshot) when persisted. */
  #applyCaughtUp(found: CaughtUp, persist: boolean): Promise<RefreshReport> {
    const job = { state: this.#state, ...found, conflictCopies: [] };
    return this.#apply(job, { marks: found.marks, persist, journalOnly: true });
  }

  /** What a catch-up reads the sources through, now. */
  #source() {
    return { backend: this.backend, layout: this.layout, now: this.now() };
  }

  async #incremental(options: RefreshOptions = {}): Promise<RefreshReport> {
    const started = beginWalk(this.backend.changeLogPath, this.now());
    const changes = this.backend.changeFeed;
    if (!changes) return this.#applyWalk(await walkSources(this.backend, this.layout), started, options);
    // A store with a change feed: what changed since the cursor saved with the index (change-cursor.ts).
    const batch = await readChanges(changes, await readCursor(this.dir, this.#files.snapshotId));
    const report = batch.full
      ? await this.#applyWalk(sourcesOfListing(batch.changes, this.layout), started, options)
      : await this.update(batch.changes.map((c) => c.locator)); // re-entrant lock: held already
    const snapshotId = this.#files.snapshotId;
    if (snapshotId !== undefined) await writeCursor(this.dir, snapshotId, batch.cursor);
    return report;
  }

  /** Applies what a walk (or a full listing) saw, against what the index knows: new, changed, gone. */
  async #applyWalk(
    walk: WalkResult,
    started: ReturnType<typeof beginWalk>,
    options: RefreshOptions,
  ): Promise<RefreshReport> {
    const plan = planWalk(this.#state.knownFiles(), walk.files);
    const report = await this.#apply(
      {
        state: this.#state,
        read: options.onProgress ? progressFeed(plan.read, options.onProgress) : plan.read,
        onProgress: options.onProgress,
        infos: infosOf(walk.files),
        remove: plan.remove,
        unchanged: plan.unchanged,
        conflictCopies: walk.conflictCopies.map((l) => l.key),
      },
      { marks: marksChange(this.marks, walkMarks(started, walk, this.now())), persist: true },
    );
    return { ...report, warnings: [...walkWarnings(walk), ...report.warnings] };
  }

  /**
   * Full build into a fresh state, swapped in only once complete (recall meanwhile uses the old one).
   * The walk feeds the readers as it goes (see KeyFeed); postings are inverted in bulk.
   */
  async #rebuild(reason: LoadStatus | 'requested', options: RefreshOptions = {}): Promise<RefreshReport> {
    // Loaded by a rebuild only: an answer never starts read workers, and worker_threads costs a hook's
    // process several milliseconds to load.
    const { startBuildPool } = await import('./read-pool.js');
    const started = beginWalk(this.backend.changeLogPath, this.now());
    const fresh = new IndexState();
    fresh.beginBulk();
    const onProgress = options.onProgress;
    this.#pool = startBuildPool(this.#options, this.backend.localRoot, this.layout, this.limits);
    const { feed, infos, listing, walking } = feedingListing(this.backend, this.layout, !!this.#pool, onProgress);
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
      this.#files.restart();
    };
    let walked: WalkResult | undefined;
    void walking.then((w) => (walked = w));
    try {
      const report = await this.#apply(
        {
          state: fresh,
          read: feed,
          infos,
          remove: [],
          unchanged: 0,
          conflictCopies: [],
          rebuilt: reason,
          beforePersist: ready,
          onProgress,
        },
        // `ready` awaited the walk before the marks are read.
        { marks: () => walkMarks(started, walked!, undefined), persist: true },
      );
      const [walk, cursor] = await Promise.all([walking, listing.cursor]);
      const snapshotId = this.#files.snapshotId;
      if (cursor !== undefined && snapshotId !== undefined) await writeCursor(this.dir, snapshotId, cursor);
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

  /**
   * Reads, maps and applies changes, then persists them (journal, or a snapshot past the limit) with the
   * marks they bring the index to. With `persist: false` (an answer without the lock) nothing is written:
   * the state is this process's alone until the next locked operation reloads it.
   */
  async #apply(job: ApplyJob, persisting: Persisting): Promise<RefreshReport> {
    try {
      return await this.#applyUnsafe(job, persisting);
    } catch (error) {
      // Nothing half-applied stays in memory: go back to what is on disk.
      this.#state = await this.#files.load();
      throw error;
    }
  }

  async #applyUnsafe(job: ApplyJob, persisting: Persisting): Promise<RefreshReport> {
    const { state, read, infos, remove, rebuilt } = job;
    const count = read instanceof KeyFeed ? read.total : read.length;
    const source = {
      backend: this.backend,
      layout: this.layout,
      toDocument: read instanceof KeyFeed || count > 0 ? await this.mapper() : NO_MAPPER,
      pool: this.#pool,
      limits: this.limits,
    };
    const collect = { ops: rebuilt === undefined, fresh: false };
    const applied = await applyChanges(state, { read, remove, infos }, source, collect);
    job.onProgress?.({ phase: 'saving', done: count, total: count, totalKnown: true });
    await job.beforePersist?.();
    await this.#files.record(this.#state, applied.ops, rebuilt !== undefined, persisting);
    return jobReport(job, count, applied, this.#state.docs.size);
  }

  /** Reloads from disk if another process changed the index. Cheap (two stats) when nothing changed. */
  async sync(): Promise<void> {
    this.#state = await this.#files.catchUp(this.#state);
    await this.#embeddings?.sync();
  }

  /** Runs `fn` under the index directory's lock (waiting `timeoutMs`, default the options'), caught up first. */
  #locked<T>(fn: () => Promise<T>, timeoutMs?: number): Promise<T> {
    const lockOptions = {
      ...(this.#options.lockRoot ? { lockRoot: this.#options.lockRoot } : {}),
      timeoutMs: timeoutMs ?? this.#options.lockTimeoutMs ?? INDEX_LOCK_TIMEOUT_MS,
    };
    return withVaultLock(
      this.dir,
      async () => {
        await this.sync();
        return fn();
      },
      lockOptions,
    );
  }

  /** The note mapper (see `MemoryIndexOptions.toDocument`), loaded when first needed. */
  mapper(): Promise<ToDocument> {
    return resolveMapper(this.#options.toDocument);
  }

  /** The index's clock (`MemoryIndexOptions.now`). */
  now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** How much of a note is indexed (`MemoryIndexOptions.maxNoteChars`). */
  get limits(): DocumentLimits {
    return { maxNoteChars: this.#options.maxNoteChars };
  }
}
