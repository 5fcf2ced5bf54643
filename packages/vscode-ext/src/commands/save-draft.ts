// Pure: what "Save selection as memory" proposes and writes for a selection — a slug from its first
// line, and code fenced with its language plus a link back to where it came from. No vscode import.

const MAX_SLUG_WORDS = 6;
const MAX_SLUG_CHARS = 60;
/** Comment, heading, quote and list markers that open a line but say nothing about it. */
const LEAD = /^\s*(?:\/\/+|\/\*+|\*+|#+|--+|;+|<!--|"""|'''|>+|[-+*]\s|\d+[.)]\s)\s*/;
const TRAIL = /\s*(?:\*+\/|-->|"""|''')\s*$/;

/**
 * A slug from the selection's first line with words on it: markers (`//`, `#`, `/*`, `--`, `>`, list
 * bullets) dropped, accents folded, lower-cased, runs of anything else joined by one hyphen, at most six
 * words and 60 characters. `''` when the selection has no letter or digit.
 */
export function suggestSlug(selection: string): string {
  const line = selection.split(/\r\n|\r|\n/).find((l) => /[\p{L}\p{N}]/u.test(l)) ?? '';
  let text = line;
  for (let i = 0; i < 3 && LEAD.test(text); i++) text = text.replace(LEAD, '');
  const words = text
    .replace(TRAIL, '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, MAX_SLUG_WORDS);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_CHARS) break;
    slug = next;
  }
  return slug || (words[0]?.slice(0, MAX_SLUG_CHARS) ?? '');
}

/** Languages whose text is prose: saved as written, not fenced. */
const PROSE = new Set(['markdown', 'plaintext', 'text', '']);
/** VS Code language ids whose usual Markdown fence name differs. */
const FENCE_NAMES: Readonly<Record<string, string>> = {
  shellscript: 'sh',
  typescriptreact: 'tsx',
  javascriptreact: 'jsx',
  'objective-c': 'objc',
  'objective-cpp': 'objcpp',
  dockerfile: 'dockerfile',
  jsonc: 'jsonc',
};

export interface SelectionSource {
  readonly text: string;
  /** The editor's language id (`typescript`, `python`, `markdown`, …). */
  readonly languageId: string;
  /** Where it came from, as a person reads it (workspace-relative path), and its 1-based lines. */
  readonly path: string | undefined;
  readonly startLine: number;
  readonly endLine: number;
  /** A link that opens the file at the line (`vscode://file/…:12`), when the selection is in a file. */
  readonly link: string | undefined;
}

/** A fence longer than any backtick run inside the code, so the code cannot close it. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The note body for a selection: code fenced with its language (prose as written), then, when the
 * selection is in a file, a line linking back to the file and lines it came from.
 */
export function selectionBody(source: SelectionSource): string {
  const text = source.text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  const body = PROSE.has(source.languageId)
    ? text
    : `${fenceFor(text)}${FENCE_NAMES[source.languageId] ?? source.languageId}\n${text}\n${fenceFor(text)}`;
  if (source.path === undefined) return `${body}\n`;
  const lines =
    source.endLine > source.startLine ? `lines ${source.startLine}–${source.endLine}` : `line ${source.startLine}`;
  const where = `\`${source.path}\`, ${lines}`;
  return `${body}\n\nFrom ${source.link ? `[${where}](${source.link})` : where}\n`;
}
