import type { ConflictCopy } from '../workspace/conflict-copies.js';

/** agentm's `HARNESS_CONFLICT_MERGER_MODE`: `interactive` (default) adds merge guidance, `silent` lists only, `off` skips. */
export type ConflictReportMode = 'interactive' | 'silent' | 'off';

export function conflictReportMode(env: Readonly<Record<string, string | undefined>>): ConflictReportMode {
  const mode = env['HARNESS_CONFLICT_MERGER_MODE']?.trim().toLowerCase();
  return mode === 'silent' || mode === 'off' ? mode : 'interactive';
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
