import { statSync } from 'node:fs';
import { join } from 'node:path';
import { LockTimeout } from '../../write-protocol/errors.js';
import { withVaultLock } from '../../write-protocol/vault-lock.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import type { StorageBackend } from '../../seam/backend.js';
import type { ToDocument } from '../documents/document.js';
import type { MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import { GuardedEmbedder } from './embed-health.js';
import { embedPending, type EmbedReport } from './embed-pending.js';
import type { IndexState } from './index-state.js';
import type { IndexProgress } from './index-types.js';
import { VECTORS_FILE, VectorCache } from './vectors.js';

/** How often a long embedding run saves what it has: a run cut short loses at most this much work. */
export const EMBED_CHECKPOINT_MS = 10_000;

/** What an embedding run reads of its index (a `MemoryIndex`). */
export interface EmbeddingSource {
  readonly dir: string;
  readonly lockRoot: string | undefined;
  readonly backend: StorageBackend;
  readonly layout: MemoryLayout;
  readonly limits: DocumentLimits;
  readonly state: IndexState;
  /** The index's stamp now (see `MemoryIndex.stamp`). */
  readonly stamp: string;
  mapper(): Promise<ToDocument>;
  now(): number;
}

/**
 * The vectors of an index with an embedding provider: cached device-locally beside it (`vectors.bin`,
 * keyed by document fingerprint, so only changed notes are embedded again), computed by runs separate
 * from refreshing — one at a time per index directory, in the background or, on a terminal, with a
 * progress bar — and read by hybrid recall through the guarded embedder (a failing endpoint: lexical
 * with one warning).
 */
export class IndexEmbeddings {
  #vectors: VectorCache;
  /** The vectors file as it was loaded (see `sync`). */
  #loaded = '';
  #running: Promise<(EmbedReport & { busy?: true }) | undefined> | undefined;
  readonly embedder: GuardedEmbedder;

  private constructor(
    private readonly source: EmbeddingSource,
    readonly provider: EmbeddingProvider,
    vectors: VectorCache,
  ) {
    this.#vectors = vectors;
    this.embedder = new GuardedEmbedder(provider, source.dir, () => source.now());
  }

  static async open(source: EmbeddingSource, provider: EmbeddingProvider): Promise<IndexEmbeddings> {
    const loaded = fileStamp(source.dir);
    const embeddings = new IndexEmbeddings(source, provider, await VectorCache.load(source.dir, provider.id));
    embeddings.#loaded = loaded;
    return embeddings;
  }

  /** Loads the vectors again when another process saved them since (one stat when it did not). */
  async sync(): Promise<void> {
    const now = fileStamp(this.source.dir);
    if (now === this.#loaded) return;
    this.#vectors = await VectorCache.load(this.source.dir, this.provider.id);
    this.#loaded = now;
  }

  get vectors(): VectorCache {
    return this.#vectors;
  }

  /**
   * Whether documents may lack a vector: the index changed since the last run that left nothing pending.
   * Cheap (no document is looked at): an answer asks it to decide whether to start a background run.
   */
  behind(): boolean {
    return this.#vectors.completeFor !== this.source.stamp;
  }

  /**
   * Starts a background run in this process (a long-lived host: `agentm mcp`, an editor) unless one is
   * running here already; never rejects (a failure is shown by the next answer, see GuardedEmbedder).
   */
  runInBackground(
    options: { onProgress?: ((progress: IndexProgress) => void) | undefined } = {},
  ): Promise<(EmbedReport & { busy?: true }) | undefined> {
    this.#running ??= this.run({ ...options, background: true })
      .catch(() => undefined)
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * Gives a vector to every document without one (see embedPending), saving as it goes, unless another
   * process is running one (`busy`: it will). `background`: a failure is left for the next answer to show.
   */
  async run(
    options: { onProgress?: ((progress: IndexProgress) => void) | undefined; background?: boolean } = {},
  ): Promise<EmbedReport & { busy?: true }> {
    const { source } = this;
    try {
      return await withVaultLock(
        join(source.dir, 'embeddings'),
        async () => {
          // Another process may have saved vectors since this one loaded them.
          await this.sync();
          const vectors = this.#vectors;
          const embedder = options.background
            ? new GuardedEmbedder(this.provider, source.dir, () => source.now(), true)
            : this.embedder;
          const stamp = source.stamp;
          const report = await embedPending(
            source.state,
            vectors,
            embedder,
            {
              backend: source.backend,
              layout: source.layout,
              toDocument: () => source.mapper(),
              limits: source.limits,
            },
            {
              onProgress: options.onProgress,
              checkpoint: () => vectors.save(source.dir),
              checkpointMs: EMBED_CHECKPOINT_MS,
              now: () => source.now(),
              background: options.background === true,
            },
          );
          if (report.pending === 0) vectors.markComplete(stamp);
          await vectors.save(source.dir);
          this.#loaded = fileStamp(source.dir);
          return report;
        },
        { ...(source.lockRoot !== undefined ? { lockRoot: source.lockRoot } : {}), timeoutMs: 0 },
      );
    } catch (error) {
      if (error instanceof LockTimeout) return { embedded: 0, pending: 0, warnings: [], busy: true };
      throw error;
    }
  }
}

/** What tells whether the vectors file changed: its mtime, size and inode (`-` when absent). */
function fileStamp(dir: string): string {
  const st = statSync(join(dir, VECTORS_FILE), { throwIfNoEntry: false });
  return st ? `${st.mtimeMs}:${st.size}:${st.ino}` : '-';
}
