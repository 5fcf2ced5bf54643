import type { DiffHunk } from './diff.js';

const PREFIX = { context: ' ', removed: '-', added: '+' } as const;

/** Renders a unified diff as text nodes (never HTML): one row per line, classed by kind. */
export function renderDiff(parent: HTMLElement, hunks: readonly DiffHunk[]): void {
  const box = parent.createDiv({ cls: 'agentm-diff' });
  if (hunks.length === 0) {
    box.createDiv({ cls: 'agentm-muted', text: 'The copy is identical to the original.' });
    return;
  }
  for (const hunk of hunks) {
    box.createDiv({ cls: 'agentm-diff-hunk', text: hunk.header });
    for (const line of hunk.lines) {
      const row = box.createDiv({ cls: ['agentm-diff-line', `agentm-diff-${line.kind}`] });
      row.createSpan({ cls: 'agentm-diff-prefix', text: PREFIX[line.kind] });
      row.createSpan({ cls: 'agentm-diff-text', text: line.text });
    }
  }
}
