import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { recognizeConflictName } from '../protocol/conflict-names.js';
import type { MemoryLayout } from '../memory/documents/layout.js';
import { walkSources } from '../memory/indexing/walk.js';

/** A sync conflict copy and the file it belongs to (store-relative keys). */
export interface ConflictCopy {
  readonly copy: string;
  readonly base: string;
}

/**
 * The sync tools' conflict copies under the memory and projects spaces (notes, PLAN and progress files),
 * found by the index's own walk (directories listed, files recognized by name; nothing is read).
 */
export async function findConflictCopies(backend: StorageBackend, layout: MemoryLayout): Promise<ConflictCopy[]> {
  const walk = await walkSources(backend, layout, undefined, { deferFileInfo: true });
  return walk.conflictCopies.map((copy: Locator) => {
    // The walk judged the ambiguous patterns among the siblings already: trust its verdict here.
    const match = recognizeConflictName(copy.name, () => true);
    return { copy: copy.key, base: copy.parent.child(match?.original ?? copy.name).key };
  });
}
