import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { recognizeConflictName } from '../write-protocol/conflict-names.js';
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
  // The base depends on the siblings ("Copy of PLAN (1).md" belongs to PLAN.md unless "PLAN (1).md" is
  // there): each directory holding a copy is listed once (copies are few; nothing is read).
  const siblings = new Map<string, Promise<Set<string>>>();
  const namesIn = (dir: Locator) => {
    let names = siblings.get(dir.key);
    if (!names) siblings.set(dir.key, (names = backend.list(dir).then((ls) => new Set(ls.map((l) => l.name)))));
    return names;
  };
  return Promise.all(
    walk.conflictCopies.map(async (copy: Locator) => {
      const names = await namesIn(copy.parent);
      const match = recognizeConflictName(copy.name, (original) => names.has(original));
      return { copy: copy.key, base: copy.parent.child(match?.original ?? copy.name).key };
    }),
  );
}
