/**
 * Where memories live under the memory root (DESIGN §3), decided from a locator key alone. Pure.
 *
 *   memory/<type>/<slug>.md                      global notes
 *   memory/_always-load/<slug>.md                always-load notes
 *   memory/_archive/…, memory/_inbox/…           superseded notes and captures: not memories to recall
 *   <projects space>/<slug>/<type>/<slug>.md     project notes (owner = slug)
 *   <projects space>/<slug>/_harness/progress*.md  episodes of the project
 */

export interface MemoryLayout {
  /** The global memory space (default `memory`). */
  readonly memorySpace: string;
  /** Projects spaces, probed in order (default `desk/projects`, `projects`, `personal-projects`). */
  readonly projectSpaces: readonly string[];
  /** Directory names under the memory space that hold no recallable memories. */
  readonly excludedMemoryDirs: readonly string[];
}

export const DEFAULT_LAYOUT: MemoryLayout = Object.freeze({
  memorySpace: 'memory',
  projectSpaces: Object.freeze(['desk/projects', 'projects', 'personal-projects']),
  excludedMemoryDirs: Object.freeze(['_archive', '_inbox']),
});

export type SourceRole = 'note' | 'progress' | 'ignored';

export interface SourceClass {
  readonly role: SourceRole;
  /** Project slug, `""` for global. */
  readonly owner: string;
  /** The type directory the note sits in (`convention`, `fix`, …), `""` when none. */
  readonly typeDir: string;
  readonly alwaysLoad: boolean;
}

const IGNORED: SourceClass = Object.freeze({ role: 'ignored', owner: '', typeDir: '', alwaysLoad: false });
const PROGRESS_NAME = /^progress(?:[-_.].*)?\.md$/i;

/** The roots the index walks: the memory space and every projects space. */
export function sourceRoots(layout: MemoryLayout = DEFAULT_LAYOUT): string[] {
  return [layout.memorySpace, ...layout.projectSpaces];
}

/**
 * What a file is, from its key: a note, a progress file (episodes), or nothing to index (PLAN files,
 * other harness state, archives, non-Markdown, dot-files).
 */
export function classifySource(key: string, layout: MemoryLayout = DEFAULT_LAYOUT): SourceClass {
  const parts = key.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (!/\.md$/i.test(name)) return IGNORED;
  for (const part of parts) if (part.charCodeAt(0) === 46 /* . */) return IGNORED;
  const { memory, projects } = splitLayout(layout);
  if (startsWith(parts, memory)) {
    const rest = parts.slice(memory.length);
    if (rest.length < 2) return IGNORED; // memory/<file>.md: no type directory
    const dir = rest[0]!;
    if (layout.excludedMemoryDirs.includes(dir)) return IGNORED;
    if (dir === '_always-load') return { role: 'note', owner: '', typeDir: '', alwaysLoad: true };
    return { role: 'note', owner: '', typeDir: dir.startsWith('_') ? '' : dir, alwaysLoad: false };
  }
  for (const prefix of projects) {
    if (!startsWith(parts, prefix)) continue;
    const rest = parts.slice(prefix.length);
    if (rest.length < 2) return IGNORED;
    const owner = rest[0]!;
    if (rest[1] === '_harness') {
      return rest.length === 3 && PROGRESS_NAME.test(name)
        ? { role: 'progress', owner, typeDir: '', alwaysLoad: false }
        : IGNORED;
    }
    if (rest[1]!.startsWith('_')) return IGNORED;
    return { role: 'note', owner, typeDir: rest.length >= 3 ? rest[1]! : '', alwaysLoad: false };
  }
  return IGNORED;
}

/** A layout's spaces split into path parts, once per layout object (classifySource runs per file). */
const splitLayouts = new WeakMap<MemoryLayout, { memory: string[]; projects: string[][] }>();

function splitLayout(layout: MemoryLayout): { memory: string[]; projects: string[][] } {
  let split = splitLayouts.get(layout);
  if (!split) {
    split = { memory: layout.memorySpace.split('/'), projects: layout.projectSpaces.map((s) => s.split('/')) };
    splitLayouts.set(layout, split);
  }
  return split;
}

function startsWith(parts: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > parts.length) return false;
  for (let i = 0; i < prefix.length; i++) if (parts[i] !== prefix[i]) return false;
  return true;
}

/** Whether a walk should enter a directory (archives and captures hold nothing to index). */
export function shouldDescend(key: string, layout: MemoryLayout = DEFAULT_LAYOUT): boolean {
  const parts = key.split('/');
  if (parts.some((p) => p.startsWith('.'))) return false;
  const memory = layout.memorySpace.split('/');
  return !(
    parts.length === memory.length + 1 &&
    startsWith(parts, memory) &&
    layout.excludedMemoryDirs.includes(parts[memory.length]!)
  );
}
