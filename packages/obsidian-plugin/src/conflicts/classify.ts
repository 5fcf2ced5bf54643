import { recognizeConflictName, type ConflictFamily } from '@agentm/core/write-protocol';
import { joinVaultPath, nameOf, parentOf } from '../vault-paths.js';

/** A conflict copy found among vault files, paired with the original it belongs to. */
export interface VaultConflict {
  readonly copyPath: string;
  /** The original's path (same folder), whether or not it still exists. */
  readonly originalPath: string;
  readonly originalExists: boolean;
  readonly family: ConflictFamily;
  /** The sync tool(s) that make this kind of copy, for people. */
  readonly tool: string;
}

/**
 * Finds the conflict copies among `paths` (vault-relative file paths) by name alone (core's
 * `recognizeConflictName`, every pattern of DESIGN §5). The ambiguous patterns (` (1)`, ` 2`, `-HOST`)
 * count only when their original is a sibling, so `report (2026).md` and `PLAN-foo.md` beside `PLAN.md`
 * are not conflicts. Pure; sorted by original, then copy.
 */
export function findVaultConflicts(paths: Iterable<string>): VaultConflict[] {
  const byFolder = new Map<string, Set<string>>();
  for (const path of paths) {
    const folder = parentOf(path);
    const names = byFolder.get(folder) ?? new Set<string>();
    names.add(nameOf(path));
    byFolder.set(folder, names);
  }
  const found: VaultConflict[] = [];
  for (const [folder, names] of byFolder) {
    for (const name of names) {
      const match = recognizeConflictName(name, (original) => names.has(original));
      if (!match) continue;
      found.push({
        copyPath: joinVaultPath(folder, name),
        originalPath: joinVaultPath(folder, match.original),
        originalExists: names.has(match.original),
        family: match.family,
        tool: match.tool,
      });
    }
  }
  return found.sort((a, b) => a.originalPath.localeCompare(b.originalPath) || a.copyPath.localeCompare(b.copyPath));
}
