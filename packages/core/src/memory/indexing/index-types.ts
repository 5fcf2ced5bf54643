import type { StorageBackend } from '../../seam/backend.js';
import type { ToDocument } from '../documents/document.js';
import type { MemoryLayout } from '../documents/layout.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';

export interface MemoryIndexOptions {
  readonly backend: StorageBackend;
  /**
   * Maps a note to its documents. Progress files are parsed by the engine. `'notes'`: the notes module's
   * own mapper (`noteToDocument`), named rather than passed so that it (and the YAML parser with it) is
   * loaded only when a note is first read — an answer that reads none never loads it — and so that a
   * cold build may read in worker threads (which run that mapper).
   */
  readonly toDocument: ToDocument | typeof NOTE_MAPPER;
  /** The memory root on disk, which names the index (default: the backend's `localRoot`). */
  readonly memoryRoot?: string;
  /** Exact index directory (e.g. under VS Code's globalStorageUri). Default: `indexDirFor(memoryRoot, indexRoot)`. */
  readonly indexDir?: string;
  /** Parent of per-root index directories (default `<XDG_CACHE_HOME or ~/.cache>/agentm/index`). */
  readonly indexRoot?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly layout?: MemoryLayout;
  /** Lock root for the index-directory lock (default: agentm's lock root). */
  readonly lockRoot?: string;
  /** How long to wait for another process's indexing (default 2 min: a cold build of a large vault holds the lock that long). */
  readonly lockTimeoutMs?: number;
  /** Journal size past which an update folds everything into a new snapshot (default 1 MiB). */
  readonly journalLimitBytes?: number;
  /** Optional embedding provider: documents get vectors for hybrid recall. Absent = lexical only, no network. */
  readonly embedder?: EmbeddingProvider | undefined;
  readonly now?: () => number;
  /**
   * The built `read-worker.js` of this package. When given, a full build of a store with a `localRoot`
   * (vault, device-local) mapped by `noteToDocument`, without an embedder, reads, maps and tokenizes the
   * notes in worker threads. Absent (or the file missing, as in bundles): one thread.
   */
  readonly workerScript?: string | undefined;
  /**
   * Read workers for a full build (default: one per core but one, at least 1, growing to one per
   * core, at most 4, once the vault has more than 20 000 files; 0 = none).
   */
  readonly workers?: number | undefined;
  /**
   * Characters of a note indexed (default DEFAULT_MAX_NOTE_CHARS, config `memory.index.max_note_chars`):
   * a huge note is searchable by its beginning, without costing memory in proportion to its size.
   */
  readonly maxNoteChars?: number | undefined;
  /**
   * How a loaded snapshot is checked: `full` (default) verifies its checksum; `structure` checks its
   * header, sections and counts only — for a short-lived answer, which must not spend a hundred
   * milliseconds hashing a large index. Snapshots are fsynced before they replace the old one, so only
   * a failing disk damages one; the background refresh (`agentm reindex --background`) opens with
   * `full` and rebuilds an index that fails. `structure` also allocates the snapshot's sections where V8
   * does not count them, which spares a process that exits soon a full collection (see `SnapshotFile`).
   */
  readonly verify?: 'full' | 'structure' | undefined;
}

/** `MemoryIndexOptions.toDocument`: the notes module's mapper, loaded when first needed. */
export const NOTE_MAPPER = 'notes';

export type LoadStatus = 'loaded' | 'missing' | 'corrupt' | 'outdated';

/**
 * How far a refresh or rebuild has got, for a progress bar: `reading` counts files handed to the
 * readers (`total` grows while the walk is still listing, `totalKnown` once it is done); `saving` and
 * `embedding` follow, without counts.
 */
export interface IndexProgress {
  readonly phase: 'reading' | 'saving' | 'embedding';
  readonly done: number;
  readonly total: number;
  readonly totalKnown: boolean;
}

/** Options of one refresh or rebuild. */
export interface RefreshOptions {
  /** Told as the build goes (see `IndexProgress`); called often, keep it cheap. */
  readonly onProgress?: ((progress: IndexProgress) => void) | undefined;
}

/** Default wait for the index-directory lock. */
export const INDEX_LOCK_TIMEOUT_MS = 120_000;

/** What a refresh, update or rebuild did. */
export interface RefreshReport {
  /** Whether everything was rebuilt, and why (`missing`, `corrupt`, `outdated`, `requested`). */
  readonly rebuilt: LoadStatus | 'requested' | undefined;
  readonly read: number;
  readonly indexed: number;
  readonly touched: number;
  readonly removed: number;
  readonly unchanged: number;
  readonly documents: number;
  readonly conflictCopies: readonly string[];
  readonly errors: readonly { readonly key: string; readonly message: string }[];
  /** Degradations that lost nothing (an embedding provider that failed: lexical only for now). */
  readonly warnings: readonly string[];
  /** Read worker threads a full build used (absent: none, everything on the calling thread). */
  readonly readWorkers?: number;
}

/** The report of a refresh that found nothing to do. */
export function nothingChanged(documents: number): RefreshReport {
  return {
    rebuilt: undefined,
    read: 0,
    indexed: 0,
    touched: 0,
    removed: 0,
    unchanged: 0,
    documents,
    conflictCopies: [],
    errors: [],
    warnings: [],
  };
}
