import { indentWidth, type Line } from './lines.js';

/**
 * A line-level Markdown classifier: just enough CommonMark to tell checklist items from look-alikes in
 * fenced or indented code, and to see headings and list nesting. It never rewrites anything.
 */
export type LineKind = 'frontmatter' | 'fence' | 'code' | 'heading' | 'task' | 'list' | 'blank' | 'text';

export interface TaskMarker {
  /** Offset of the status symbol inside the line text (between `[` and `]`). */
  readonly symbolOffset: number;
  readonly symbol: string;
  /** Offset where the item's content (title and fields) starts. */
  readonly contentStart: number;
}

export interface ScannedLine {
  readonly index: number;
  readonly kind: LineKind;
  /** Indentation in columns. */
  readonly indent: number;
  readonly headingLevel?: number;
  readonly headingText?: string;
  readonly task?: TaskMarker;
  /** For list and task items: the column where the item's content starts (continuation indent). */
  readonly contentIndent?: number;
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const TASK = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)\[([^\]\r\n])\](?=[ \t]|$)/u;

/** Classifies each line; lines `[0, bodyStart)` are frontmatter. */
export function scanMarkdown(lines: readonly Line[], bodyStart = 0): ScannedLine[] {
  const out: ScannedLine[] = [];
  let fence: { char: string; length: number } | undefined;
  let inList = false;
  let previousBlankOrCode = true;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!.text;
    const indent = indentWidth(text);
    if (index < bodyStart) {
      out.push({ index, kind: 'frontmatter', indent });
      continue;
    }
    if (fence) {
      const close = new RegExp(`^[ \\t]*${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
      if (close.test(text)) fence = undefined;
      out.push({ index, kind: 'fence', indent });
      previousBlankOrCode = false;
      continue;
    }
    if (text.trim() === '') {
      out.push({ index, kind: 'blank', indent });
      previousBlankOrCode = true;
      continue;
    }
    // An indented code block: 4+ columns outside any list, after a blank line (or more code).
    if (indent >= 4 && !inList && previousBlankOrCode) {
      out.push({ index, kind: 'code', indent });
      continue;
    }
    const opening = FENCE_OPEN.exec(text);
    if (opening && !(opening[1]!.startsWith('`') && opening[2]!.includes('`'))) {
      fence = { char: opening[1]![0]!, length: opening[1]!.length };
      out.push({ index, kind: 'fence', indent });
      previousBlankOrCode = false;
      continue;
    }
    previousBlankOrCode = false;
    const heading = HEADING.exec(text);
    if (heading) {
      inList = false;
      const headingText = (heading[2] ?? '')
        .replace(/[ \t]+#+$/, '')
        .replace(/^#+$/, '')
        .trim();
      out.push({ index, kind: 'heading', indent, headingLevel: heading[1]!.length, headingText });
      continue;
    }
    const task = TASK.exec(text);
    if (task) {
      inList = true;
      const symbolOffset = task[0].length - 1 - task[4]!.length;
      const contentStart = task[0].length;
      const contentIndent = indentWidth(task[1]!) + task[2]!.length + Math.max(1, task[3]!.length);
      out.push({ index, kind: 'task', indent, task: { symbolOffset, symbol: task[4]!, contentStart }, contentIndent });
      continue;
    }
    const item = LIST_ITEM.exec(text);
    if (item) {
      inList = true;
      out.push({
        index,
        kind: 'list',
        indent,
        contentIndent: indentWidth(item[1]!) + item[2]!.length + Math.max(1, item[3]!.length),
      });
      continue;
    }
    // A paragraph at the margin right after a blank line ends the list (a lazy continuation does not).
    if (indent === 0 && out[index - 1]?.kind === 'blank') inList = false;
    out.push({ index, kind: 'text', indent });
  }
  return out;
}
