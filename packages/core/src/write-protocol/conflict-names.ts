/**
 * Recognizes the conflict copies sync tools (and AgentM itself) leave beside a file, by name alone.
 * Pure: the caller says which sibling names exist, for the ambiguous patterns that are only conflicts
 * when their original sits beside them (`report (1).md`, `notes 2.md`, `plan-DESKTOP1.md`).
 */

export type ConflictFamily =
  | 'agentm'
  | 'syncthing'
  | 'conflicted-copy'
  | 'bracket-conflict'
  | 'copy-of'
  | 'resilio'
  | 'rclone'
  | 'numbered'
  | 'icloud'
  | 'onedrive';

export interface ConflictMatch {
  readonly family: ConflictFamily;
  /** The sync tool(s) that produce this pattern, for people. */
  readonly tool: string;
  /** The file name of the original this copy belongs to (same directory). */
  readonly original: string;
  /** Whether the pattern needed the sibling check to be believed. */
  readonly ambiguous: boolean;
}

interface Rule {
  readonly family: ConflictFamily;
  readonly tool: string;
  readonly ambiguous: boolean;
  /**
   * Whether the name holds what `match` needs, by a substring test (`lower`: the name in lower case): a
   * walk asks every rule of every file, and most names hold none of it — the regexes are not run then.
   */
  readonly hint: (name: string, lower: string) => boolean;
  /** Returns the original name, or undefined when the rule does not apply. */
  readonly match: (name: string) => string | undefined;
  /** Adjusts the matched original, given the sibling check (when the caller has one). */
  readonly refine?: (original: string, hasSibling: ((original: string) => boolean) | undefined) => string;
}

/** `(stem)(.ext)?` where the extension is the last dot-suffix of a name that does not start with it. */
const EXT = String.raw`(\.[^.\s()\[\]]+)?`;

function byRegex(pattern: RegExp, build: (m: RegExpExecArray) => string): (name: string) => string | undefined {
  return (name) => {
    const m = pattern.exec(name);
    if (!m) return undefined;
    const original = build(m);
    return original !== '' && original !== name ? original : undefined;
  };
}

/** The patterns, most specific first (exported for the test that holds each rule's hint to its match). */
export const RULES: readonly Rule[] = [
  {
    family: 'agentm',
    tool: 'AgentM (a write that lost its compare-and-swap)',
    ambiguous: false,
    hint: (name) => name.includes(' (agentm conflict '),
    match: byRegex(
      new RegExp(String.raw`^(.+?) \(agentm conflict [^()]+ \d{14}\)${EXT}$`),
      (m) => m[1]! + (m[2] ?? ''),
    ),
  },
  {
    family: 'syncthing',
    tool: 'Syncthing',
    ambiguous: false,
    hint: (name) => name.includes('.sync-conflict-'),
    match: byRegex(
      new RegExp(String.raw`^(.+?)\.sync-conflict-\d{8}-\d{6}(?:-[A-Za-z0-9]+)?${EXT}$`),
      (m) => m[1]! + (m[2] ?? ''),
    ),
  },
  {
    // Dropbox "(Alex's conflicted copy 2026-01-02)", Nextcloud "(conflicted copy 2026-01-02 120000)",
    // Obsidian Sync "(Conflicted copy …)", Drive "(conflicted copy …) - Device".
    family: 'conflicted-copy',
    tool: 'Dropbox, Nextcloud, Obsidian Sync or Google Drive',
    ambiguous: false,
    hint: (_, lower) => lower.includes('conflicted copy'),
    match: byRegex(
      new RegExp(
        String.raw`^(.+?)\s*\([^()]*\bconflicted copy\b[^()]*(?:\([^()]*\)[^()]*)?\)(?:\s+(?:-|from)\s+[^.]*)?${EXT}$`,
        'i',
      ),
      (m) => m[1]! + (m[2] ?? ''),
    ),
  },
  {
    family: 'bracket-conflict',
    tool: 'Google Drive',
    ambiguous: false,
    hint: (_, lower) => lower.includes('[conflict'),
    match: byRegex(new RegExp(String.raw`^(.+?)\s*\[conflict(?:\s*\d+)?\]${EXT}$`, 'i'), (m) => m[1]! + (m[2] ?? '')),
  },
  {
    family: 'copy-of',
    tool: 'Google Drive',
    ambiguous: false,
    hint: (_, lower) => lower.startsWith('copy of '),
    match: byRegex(/^copy of (.+)$/i, (m) => m[1]!),
    // Drive copies a numbered copy as "Copy of PLAN (1).md": agentm's base inference strips the " (N)"
    // before "Copy of", so the original is PLAN.md, unless "PLAN (1).md" itself sits beside the copy.
    refine: (original, hasSibling) => {
      const numbered = new RegExp(String.raw`^(.+?)\s+\(\d+\)${EXT}$`).exec(original);
      if (!numbered || hasSibling?.(original) === true) return original;
      return numbered[1]! + (numbered[2] ?? '');
    },
  },
  {
    // "name.Conflict.md", "name.Conflict1.md", "name.Conflict 3.md", "name.Conflict".
    family: 'resilio',
    tool: 'Resilio Sync',
    ambiguous: false,
    hint: (name) => name.includes('.Conflict'),
    match: byRegex(new RegExp(String.raw`^(.+?)\.Conflict(?: ?\d+)?${EXT}$`), (m) => m[1]! + (m[2] ?? '')),
  },
  {
    // rclone bisync: "name.md.conflict1" (suffix after the extension, the default), "name.conflict1.md",
    // and the older "name.md..path1".
    family: 'rclone',
    tool: 'rclone bisync',
    ambiguous: false,
    hint: (name) => name.includes('..path') || name.includes('.conflict'),
    match: (name) => {
      const old = /^(.+)\.\.path[12]$/.exec(name);
      if (old) return old[1];
      const m = new RegExp(String.raw`^(.+?)\.conflict\d+${EXT}$`).exec(name);
      return m ? m[1]! + (m[2] ?? '') : undefined;
    },
  },
  {
    family: 'numbered',
    tool: 'Google Drive',
    ambiguous: true,
    hint: (name) => name.includes('('),
    match: byRegex(new RegExp(String.raw`^(.+?)\s+\(\d+\)${EXT}$`), (m) => m[1]! + (m[2] ?? '')),
  },
  {
    family: 'icloud',
    tool: 'iCloud Drive',
    ambiguous: true,
    hint: (name) => name.includes(' '),
    match: byRegex(new RegExp(String.raw`^(.+?) (?:[2-9]|[1-9]\d+)${EXT}$`), (m) => m[1]! + (m[2] ?? '')),
  },
  {
    // OneDrive's "keep both" appends the computer name, which Windows shows in upper case
    // ("notes-DESKTOP-4F2K9Q1.md"). Requiring upper case keeps "PLAN-foo.md" beside "PLAN.md" a plan.
    family: 'onedrive',
    tool: 'OneDrive',
    ambiguous: true,
    hint: (name) => name.includes('-') && /[A-Z]/.test(name),
    match: byRegex(
      new RegExp(String.raw`^(.+?)-((?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{0,62})${EXT}$`),
      (m) => m[1]! + (m[3] ?? ''),
    ),
  },
];

/**
 * Classifies a file name. Unambiguous patterns match on the name alone; ambiguous ones only when
 * `hasSibling(original)` says the original exists beside the copy (without it they never match, which
 * keeps `report (2026).md` a report).
 */
export function recognizeConflictName(
  name: string,
  hasSibling?: (original: string) => boolean,
): ConflictMatch | undefined {
  const lower = name.toLowerCase();
  for (const rule of RULES) {
    if (!rule.hint(name, lower)) continue;
    const matched = rule.match(name);
    if (matched === undefined) continue;
    const original = rule.refine ? rule.refine(matched, hasSibling) : matched;
    if (rule.ambiguous && !(hasSibling?.(original) ?? false)) continue;
    return { family: rule.family, tool: rule.tool, original, ambiguous: rule.ambiguous };
  }
  return undefined;
}

/** Convenience: whether `name` is a conflict copy, given the names present in its directory. */
export function isConflictName(name: string, siblings: Iterable<string> = []): boolean {
  const present = siblings instanceof Set ? (siblings as Set<string>) : new Set(siblings);
  return recognizeConflictName(name, (original) => present.has(original)) !== undefined;
}

/**
 * The name AgentM gives its own conflict copy, beside the original:
 * `<stem> (agentm conflict <device> <YYYYMMDDHHmmss>)<ext>` in local time.
 */
export function agentmConflictName(originalName: string, device: string, when: Date = new Date()): string {
  const dot = originalName.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [originalName.slice(0, dot), originalName.slice(dot)] : [originalName, ''];
  const safeDevice = device.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'device';
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const stamp =
    `${when.getFullYear()}${pad(when.getMonth() + 1)}${pad(when.getDate())}` +
    `${pad(when.getHours())}${pad(when.getMinutes())}${pad(when.getSeconds())}`;
  return `${stem} (agentm conflict ${safeDevice} ${stamp})${ext}`;
}
