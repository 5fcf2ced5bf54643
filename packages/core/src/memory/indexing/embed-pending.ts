import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import { Locator } from '../../seam/locator.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import { ProviderError, ProviderRestingError } from '../../providers/errors.js';
import type { ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf, type DocumentLimits } from '../documents/source-documents.js';
import type { IndexState } from './index-state.js';
import type { IndexProgress } from './index-types.js';
import { EMBED_CHARS, type VectorCache } from './vectors.js';

/** Texts sent to the endpoint in one request. */
export const EMBED_BATCH = 64;

/** What an embedding run did. */
export interface EmbedReport {
  /** Documents given a vector in this run. */
  readonly embedded: number;
  /** Documents still without one (the endpoint failed, or the run was cut short). */
  readonly pending: number;
  /** A failure to show a person (none when it was shown before: see GuardedEmbedder). */
  readonly warnings: string[];
}

/** The live documents without a vector, by the file that holds them: the work of an embedding run. */
export function pendingEmbeddings(state: IndexState, vectors: VectorCache): Map<string, Set<string>> {
  const pending = new Map<string, Set<string>>();
  for (const doc of state.docs.values()) {
    if (vectors.get(doc.fingerprint)) continue;
    let fps = pending.get(doc.locator);
    if (!fps) pending.set(doc.locator, (fps = new Set()));
    fps.add(doc.fingerprint);
  }
  return pending;
}

/**
 * Gives a vector to every live document that has none — the notes changed or added since the last run
 * (vectors are keyed by the document's fingerprint, so an unchanged note is never embedded again) — in
 * batches, re-reading their files (the index keeps no full text). `checkpoint` is called at most every
 * `checkpointMs` (the vectors so far are saved: a run cut short loses little), and `onProgress` after each
 * batch. A provider failure stops the run; it comes back as a warning unless it was shown before or the
 * run is in the background (then the next answer shows it, see GuardedEmbedder).
 */
export async function embedPending(
  state: IndexState,
  vectors: VectorCache,
  provider: EmbeddingProvider,
  source: {
    backend: StorageBackend;
    layout: MemoryLayout;
    toDocument: () => Promise<ToDocument>;
    limits?: DocumentLimits | undefined;
  },
  options: {
    onProgress?: ((progress: IndexProgress) => void) | undefined;
    checkpoint: () => Promise<void>;
    checkpointMs: number;
    now: () => number;
    /** A run nobody watches: its failure is recorded for the next answer to show, not returned. */
    background?: boolean;
  },
): Promise<EmbedReport> {
  const pending = pendingEmbeddings(state, vectors);
  let total = 0;
  for (const fps of pending.values()) total += fps.size;
  let done = 0; // embedded, or found gone or changed since it was indexed (the next refresh re-indexes it)
  let embedded = 0;
  let lastSave = options.now();
  options.onProgress?.({ phase: 'embedding', done, total, totalKnown: true });
  const toDocument = total > 0 ? await source.toDocument() : undefined;
  let batch: Array<[string, string]> = [];
  const flush = async () => {
    const vectorsOut = await provider.embed(batch.map(([, text]) => text));
    if (vectors.dimensions !== 0 && vectorsOut.some((v) => v.length !== vectors.dimensions))
      throw new DimensionChange(provider.id, vectorsOut[0]?.length ?? 0, vectors.dimensions);
    batch.forEach(([fp], i) => vectors.set(fp, vectorsOut[i]!));
    done += batch.length;
    embedded += batch.length;
    batch = [];
    options.onProgress?.({ phase: 'embedding', done, total, totalKnown: true });
    if (options.now() - lastSave >= options.checkpointMs) {
      await options.checkpoint();
      lastSave = options.now();
    }
  };
  try {
    for (const [key, fps] of pending) {
      const locator = new Locator(key);
      let text: string;
      let info;
      try {
        [info, text] = await Promise.all([source.backend.info(locator), source.backend.read(locator)]);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        done += fps.size; // gone since it was indexed: the next refresh drops it
        continue;
      }
      const docs = documentsOf(classifySource(key, source.layout), locator, text, info, toDocument!, source.limits);
      let queued = 0;
      for (const doc of docs) {
        if (!fps.has(doc.fingerprint) || vectors.get(doc.fingerprint)) continue;
        batch.push([doc.fingerprint, `${doc.title}\n${doc.text}`.slice(0, EMBED_CHARS)]);
        queued++;
        if (batch.length >= EMBED_BATCH) await flush();
      }
      done += fps.size - queued;
    }
    if (batch.length > 0) await flush();
  } catch (error) {
    if (error instanceof DimensionChange) return { embedded, pending: total - done, warnings: [error.message] };
    if (!(error instanceof ProviderError)) throw error;
    const warnings =
      error instanceof ProviderRestingError || options.background
        ? []
        : [`${error.message} — ${total - done} note(s) stay lexical-only until the endpoint answers again`];
    return { embedded, pending: total - done, warnings };
  }
  vectors.retain(new Set(Array.from(state.docs.values(), (d) => d.fingerprint)));
  return { embedded, pending: 0, warnings: [] };
}

/** The endpoint's vectors changed length (another model behind the same name): the old vectors are no use. */
class DimensionChange extends Error {
  constructor(provider: string, got: number, had: number) {
    super(`embeddings from ${provider} changed dimension (${got} vs ${had}); run \`agentm reindex --full\``);
  }
}
