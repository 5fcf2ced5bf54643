import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import { Locator } from '../../seam/locator.js';
import type { IndexDocument, ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf } from '../documents/source-documents.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import type { IndexState } from './index-state.js';
import type { VectorCache } from './vectors.js';

/** Documents without a vector re-read per refresh (earlier provider failures), at most. */
export const EMBED_RETRY_LIMIT = 500;

/**
 * Gives vectors to the documents just indexed, then to up to EMBED_RETRY_LIMIT older documents still
 * without one (their source is re-read: the index keeps no full text). Drops vectors of documents
 * that are gone. Provider failures come back as warnings; the index itself is never affected.
 */
export async function embedPending(
  state: IndexState,
  vectors: VectorCache,
  provider: EmbeddingProvider,
  fresh: readonly IndexDocument[],
  source: { backend: StorageBackend; layout: MemoryLayout; toDocument: ToDocument },
): Promise<string[]> {
  const warnings = await vectors.embedMissing(fresh, provider);
  if (warnings.length === 0) {
    const freshIds = new Set(fresh.map((d) => d.id));
    const stale = new Set<string>();
    for (const doc of state.docs.values()) {
      if (stale.size >= EMBED_RETRY_LIMIT) break;
      if (!freshIds.has(doc.id) && !vectors.get(doc.fingerprint)) stale.add(doc.locator);
    }
    const docs: IndexDocument[] = [];
    for (const key of stale) {
      const locator = new Locator(key);
      try {
        const [info, text] = await Promise.all([source.backend.info(locator), source.backend.read(locator)]);
        docs.push(...documentsOf(classifySource(key, source.layout), locator, text, info, source.toDocument));
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    warnings.push(...(await vectors.embedMissing(docs, provider)));
  }
  vectors.retain(new Set([...state.docs.values()].map((d) => d.fingerprint)));
  return warnings;
}
