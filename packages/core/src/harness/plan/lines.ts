/** One physical line and the exact line ending that followed it (none on an unterminated last line). */
export interface Line {
  readonly text: string;
  readonly eol: '' | '\n' | '\r\n' | '\r';
}

/**
 * Splits text into lines on LF, CRLF and lone CR (CommonMark's three line endings), keeping each
 * ending, so `joinLines(splitLines(t)) === t` for every string. Empty text has no lines.
 */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lines.push({ text: text.slice(start, i), eol: '\n' });
      start = i + 1;
    } else if (c === 13) {
      const crlf = text.charCodeAt(i + 1) === 10;
      lines.push({ text: text.slice(start, i), eol: crlf ? '\r\n' : '\r' });
      if (crlf) i++;
      start = i + 1;
    }
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

/** The inverse of `splitLines`. */
export function joinLines(lines: readonly Line[]): string {
  let out = '';
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/** The line ending a file mostly uses (its first one), LF for a file without any. */
export function dominantEol(lines: readonly Line[]): '\n' | '\r\n' | '\r' {
  for (const line of lines) if (line.eol !== '') return line.eol;
  return '\n';
}

/** Indentation width in columns (a tab advances to the next multiple of 4, as CommonMark counts it). */
export function indentWidth(text: string): number {
  let col = 0;
  for (const ch of text) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}
