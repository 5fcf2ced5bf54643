import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { recognizeConflictName } from '../protocol/conflict-names.js';
import type { MemoryLayout } from '../memory/documents/layout.js';
import { walkSources } from '../memory/indexing/walk.js';

/** agentm's `HARNESS_CONFLICT_MERGER_MODE`: `interactive` (default) adds merge guidance, `silent` lists only, `off` skips. */
export type ConflictReportMode = 'interactive' | 'silent' | 'off';

export function conflictReportMode(env: Readonly<Record<string, string | undefined>>): ConflictReportMode {
  const mode = env['HARNESS_CONFLICT_MERGER_MODE']?.trim().toLowerCase();
  return mode === 'silent' || mode === 'off' ? mode : 'interactive';
}

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

/**
 * The report agentm's conflict-merger prints at session start (stderr only; it never blocks): a header,
 * each copy and its base, and, in `interactive` mode, how to merge and how to silence it. `""` when
 * there are none.
 */
export function formatConflictReport(copies: readonly ConflictCopy[], mode: ConflictReportMode): string {
  if (copies.length === 0 || mode === 'off') return '';
  const lines = [`[conflict-merger] ${copies.length} conflict/duplicate file(s) detected (${copies.length} in vault):`];
  for (const c of copies) lines.push(`  [vault] conflict: ${c.copy}`, `          base: ${c.base}`);
  if (mode === 'interactive')
    lines.push(
      '  Merge each copy into its base by hand (Obsidian: the AgentM Conflicts view shows both side by side), then delete the copy.',
      '  PLAN.md, PLAN-<name>.md, progress.md and progress-<name>.md matter most: a run reads only the base.',
      '  Silence this with HARNESS_CONFLICT_MERGER_MODE=silent (list only) or off.',
    );
  return `${lines.join('\n')}\n`;
}
