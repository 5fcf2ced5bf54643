import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import type { IndexDocument, ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf, type DocumentLimits } from '../documents/source-documents.js';
import type { IndexState } from './index-state.js';
import type { RefreshOptions, RefreshReport } from './index-types.js';
import type { JournalOp } from './journal.js';
import { readDecision } from './refresh-plan.js';
import { KeyFeed } from './feed.js';
import { WALK_CONCURRENCY, walkSources } from './walk.js';
import type { ReadPool } from './read-pool.js';
import { FILE_DIR, FILE_OK, type PreparedBatch } from './prepare.js';

/** One application of changes to an index state, with what `MemoryIndex` does around it. */
export interface ApplyJob {
  readonly state: IndexState;
  readonly read: readonly string[] | KeyFeed;
  readonly infos: ReadonlyMap<string, Info>;
  readonly remove: readonly string[];
  readonly unchanged: number;
  readonly conflictCopies: string[];
  /** Set for a full build: why it ran. */
  readonly rebuilt?: RefreshReport['rebuilt'];
  /** Runs after every file is applied, before persisting (a full build swaps its state in here). */
  readonly beforePersist?: () => Promise<void>;
  readonly onProgress?: RefreshOptions['onProgress'];
}

export interface AppliedChanges {
  readonly ops: JournalOp[];
  /** Documents (with their full text) indexed in this pass: the ones to embed. */
  readonly fresh: IndexDocument[];
  readonly errors: { key: string; message: string }[];
  readonly indexed: number;
  readonly touched: number;
}

/** What `job` did, as a refresh reports it: `read` files read, `documents` in the index after it. */
export function jobReport(job: ApplyJob, read: number, applied: AppliedChanges, documents: number): RefreshReport {
  const { indexed, touched, errors } = applied;
  const { rebuilt, unchanged, conflictCopies } = job;
  return {
    rebuilt,
    read,
    indexed,
    touched,
    removed: job.remove.length,
    unchanged,
    documents,
    conflictCopies,
    errors,
    warnings: [],
  };
}

/**
 * Applies a refresh plan to the in-memory state: removes `remove`, reads `read` (a file whose hash did
 * not change only gets its new mtime), maps each changed file to documents and indexes them. Returns
 * the journal ops that describe what changed. A file that vanished since the walk counts as removed;
 * a mapper that throws leaves the file indexed with no documents and is reported in `errors`.
 *
 * `infos` are the stats the walk took just before: a file changed between that stat and the read is
 * recorded with its older mtime, so the next refresh re-reads it (and finds it by hash) — never missed.
 */
export async function applyChanges(
  state: IndexState,
  plan: { read: readonly string[] | KeyFeed; remove: readonly string[]; infos: ReadonlyMap<string, Info> },
  source: {
    backend: StorageBackend;
    layout: MemoryLayout;
    toDocument: ToDocument;
    pool?: ReadPool | undefined;
    limits?: DocumentLimits | undefined;
  },
  /** What to collect: journal ops (not for a rebuild, which writes a snapshot) and fresh documents (only to embed them). */
  collect: { ops: boolean; fresh: boolean } = { ops: true, fresh: true },
): Promise<AppliedChanges> {
  const out: AppliedChanges = { ops: [], fresh: [], errors: [], indexed: 0, touched: 0 };
  let indexed = 0;
  let touched = 0;
  for (const key of plan.remove) {
    state.deleteFile(key);
    out.ops.push({ op: 'del', key });
  }
  if (source.pool && plan.read instanceof KeyFeed && !collect.ops && !collect.fresh) {
    const pooled = await applyPooled(state, plan.read, plan.infos, source.pool);
    if (pooled.dirs.length === 0) return { ...out, errors: pooled.errors, indexed: pooled.indexed };
    // `.md` names that are directories (the walk left them to the workers to stat): walk and read them here.
    const walk = await walkSources(source.backend, source.layout, undefined, { roots: pooled.dirs });
    const infos = new Map(
      walk.files.map((f) => [f.locator.key, { locator: f.locator, isDir: false, size: f.size, mtimeMs: f.mtimeMs }]),
    );
    const rest = await applyChanges(
      state,
      { read: walk.files.map((f) => f.locator.key), remove: [], infos },
      { ...source, pool: undefined },
      collect,
    );
    return { ...out, errors: [...pooled.errors, ...rest.errors], indexed: pooled.indexed + rest.indexed };
  }
  const feed = plan.read instanceof KeyFeed ? plan.read : KeyFeed.of(plan.read);
  const worker = async () => {
    for (let key = await feed.next(); key !== undefined; key = await feed.next()) await applyOne(key);
  };
  const applyOne = async (key: string) => {
    const locator = new Locator(key);
    let text: string;
    let info: Info;
    try {
      const known = plan.infos.get(key);
      [info, text] = known
        ? [known, await source.backend.read(locator)]
        : await Promise.all([source.backend.info(locator), source.backend.read(locator)]);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      if (state.files.has(key)) {
        state.deleteFile(key);
        out.ops.push({ op: 'del', key });
      }
      return;
    }
    const hash = contentHash(text);
    if (readDecision(state.files.get(key), hash) === 'touch') {
      state.touchFile(key, info.mtimeMs);
      out.ops.push({ op: 'touch', key, mtimeMs: info.mtimeMs });
      touched++;
      return;
    }
    const file = { key, mtimeMs: info.mtimeMs, size: info.size, hash };
    let docs: IndexDocument[];
    try {
      docs = documentsOf(classifySource(key, source.layout), locator, text, info, source.toDocument, source.limits);
    } catch (error) {
      out.errors.push({ key, message: (error as Error).message ?? String(error) });
      docs = [];
    }
    state.putFile(file, docs);
    // A rebuild of 100 000 notes would otherwise keep every text alive until the snapshot is written.
    if (collect.ops) out.ops.push({ op: 'put', file, docs });
    if (collect.fresh) out.fresh.push(...docs);
    indexed++;
  };
  await Promise.all(Array.from({ length: WALK_CONCURRENCY }, worker));
  return { ...out, indexed, touched };
}

/**
 * A cold build's read, map and tokenize done by a pool of read workers (see ReadPool): this thread
 * interns each batch's distinct terms and adopts the prepared documents. Same index as the main-thread
 * path (a vanished file is skipped, a mapper error leaves the file with no documents and is reported).
 */
async function applyPooled(
  state: IndexState,
  feed: KeyFeed,
  infos: ReadonlyMap<string, Info>,
  pool: ReadPool,
): Promise<{ errors: { key: string; message: string }[]; indexed: number; dirs: string[] }> {
  const errors: { key: string; message: string }[] = [];
  const dirs: string[] = [];
  let indexed = 0;
  // Per worker: its term id → this index's term id, grown as its batches bring new terms.
  const maps: Int32Array[] = [];
  await pool.run(feed, infos, (batch: PreparedBatch, worker: number) => {
    let map = maps[worker] ?? new Int32Array(1024);
    const need = batch.termBase + batch.newTerms.length;
    if (need > map.length) {
      const grown = new Int32Array(Math.max(need, map.length * 2));
      grown.set(map);
      map = grown;
    }
    maps[worker] = map;
    for (let i = 0; i < batch.newTerms.length; i++) map[batch.termBase + i] = state.bm25.internTerm(batch.newTerms[i]!);
    const { files, docs } = batch;
    const addTerms = (d: number) =>
      state.bm25.addRuns(docs.lengths[d]!, batch.ids, batch.tfs, d > 0 ? docs.runEnd[d - 1]! : 0, docs.runEnd[d]!, map);
    for (let f = 0; f < files.keys.length; f++) {
      const key = files.keys[f]!;
      if (files.status[f] !== FILE_OK) {
        if (state.files.has(key)) state.deleteFile(key);
        if (files.status[f] === FILE_DIR) dirs.push(key);
        continue;
      }
      const entry = {
        key,
        mtimeMs: files.mtime[f]!,
        size: files.size[f]!,
        hash: files.hash.subarray(f * 32, f * 32 + 32),
      };
      state.putColumns(entry, docs, f > 0 ? files.docEnd[f - 1]! : 0, files.docEnd[f]!, addTerms);
      const error = files.errors[f];
      if (error !== undefined) errors.push({ key, message: error });
      indexed++;
    }
  });
  return { errors, indexed, dirs };
}
