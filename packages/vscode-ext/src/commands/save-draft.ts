// Pure: what "Save selection as memory" proposes and writes for a selection — a slug from its first
// line, a title, and code fenced with its language plus where it came from. No vscode import.

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
  /**
   * Where it came from, meaningful on another machine: the path relative to its git repository (or to
   * the workspace folder), never an absolute path; undefined when there is none (an untitled buffer, a
   * file outside any repository and workspace).
   */
  readonly path: string | undefined;
  readonly startLine: number;
  readonly endLine: number;
  /** The repository's commit (`HEAD`) the path and lines are in, when the file is in a git repository. */
  readonly commit: string | undefined;
}

/** A fence longer than any backtick run inside the code, so the code cannot close it. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `retry-lock-backoff` → `Retry lock backoff`: the title of a note named by its slug. */
export function titleFromSlug(slug: string): string {
  const words = slug.split('-').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether prose already opens with a line a reader (and the index) takes as its title. */
function opensWithTitle(text: string): boolean {
  const first = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  return /^ {0,3}#{1,6}\s/.test(first) || (/[\p{L}\p{N}]/u.test(first) && !/^ {0,3}(`{3,}|~{3,})/.test(first));
}

/**
 * The note body for a selection: a `# Title` heading (from the slug) unless the selection is prose that
 * opens with its own title line; code fenced with its language (prose as written); then, when known,
 * where it came from — the repository-relative path, lines and commit, which mean the same on every
 * machine the vault syncs to (never an absolute path or an editor link).
 */
export function selectionBody(source: SelectionSource, slug: string): string {
  const text = source.text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  const prose = PROSE.has(source.languageId);
  const body = prose
    ? text
    : `${fenceFor(text)}${FENCE_NAMES[source.languageId] ?? source.languageId}\n${text}\n${fenceFor(text)}`;
  const titled = prose && opensWithTitle(text) ? body : `# ${titleFromSlug(slug)}\n\n${body}`;
  if (source.path === undefined) return `${titled}\n`;
  const lines =
    source.endLine > source.startLine ? `lines ${source.startLine}–${source.endLine}` : `line ${source.startLine}`;
  const at = source.commit ? `, at commit ${source.commit.slice(0, 12)}` : '';
  return `${titled}\n\nFrom \`${source.path}\`, ${lines}${at}.\n`;
}
