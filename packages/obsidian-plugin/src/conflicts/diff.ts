import { structuredPatch } from 'diff';

/** One line of a unified diff: context, removed from the original, or added by the copy. */
export interface DiffLine {
  readonly kind: 'context' | 'removed' | 'added';
  readonly text: string;
}

export interface DiffHunk {
  /** `@@ -a,b +c,d @@` */
  readonly header: string;
  readonly lines: readonly DiffLine[];
}

/**
 * The unified diff from the original to the copy (3 lines of context), from jsdiff's `structuredPatch`
 * (Myers' algorithm; the library handles "no newline at end of file" and CRLF text). `[]` when equal.
 */
export function unifiedDiff(original: string, copy: string): DiffHunk[] {
  const patch = structuredPatch('original', 'copy', original, copy, '', '', { context: 3 });
  return patch.hunks.map((hunk) => ({
    header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    lines: hunk.lines
      .filter((line) => !line.startsWith('\\'))
      .map((line): DiffLine => ({
        kind: line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'context',
        text: line.slice(1),
      })),
  }));
}
