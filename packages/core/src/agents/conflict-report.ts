import { Locator } from '../seam/locator.js';
import { recognizeConflictName } from '../write-protocol/conflict-names.js';
import { conflictKeys } from '../memory/indexing/source-marks.js';
import { findConflictCopies, type ConflictCopy } from '../workspace/conflict-copies.js';
import type { Workspace } from '../workspace/workspace.js';

/** agentm's `HARNESS_CONFLICT_MERGER_MODE`: `interactive` (default) adds merge guidance, `silent` lists only, `off` skips. */
export type ConflictReportMode = 'interactive' | 'silent' | 'off';

export function conflictReportMode(env: Readonly<Record<string, string | undefined>>): ConflictReportMode {
  const mode = env['HARNESS_CONFLICT_MERGER_MODE']?.trim().toLowerCase();
  return mode === 'silent' || mode === 'off' ? mode : 'interactive';
}

/**
 * The conflict copies of the workspace's store: from the memory index's folder listings, caught up with
 * the folders that changed since (no walk), or by a full scan when the index is not built yet.
 */
export async function conflictCopiesHere(ws: Workspace): Promise<ConflictCopy[]> {
  const index = await ws.upToDateIndex();
  if (index === undefined) return findConflictCopies(ws.backend, ws.layout);
  return conflictKeys(index.marks).map((key) => {
    const copy = new Locator(key);
    const match = recognizeConflictName(copy.name, () => true);
    return { copy: key, base: copy.parent.child(match?.original ?? copy.name).key };
  });
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
