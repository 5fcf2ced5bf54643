import type { StorageBackend } from '../../seam/backend.js';
import type { Locator } from '../../seam/locator.js';
import { isTempName } from '../../write-protocol/atomic-write.js';
import { recognizeConflictName } from '../../write-protocol/conflict-names.js';
import { budgetChars, normalizePhase, phaseBudget } from './budget.js';
import { archivedNoteKey } from '../indexing/supersession.js';
import { parseNote, type ParsedNote } from '../notes/parse.js';

export interface BasicRecallOptions {
  /** The project's folder in the store; its notes are recalled (its `_harness/` is not). */
  readonly projectLocator?: Locator | undefined;
  readonly projectSlug?: string | undefined;
  readonly phase?: string | undefined;
  /** Token budget; default: the phase's (env `HARNESS_RECALL_BUDGET_<PHASE>` → agentm's default). */
  readonly limit?: number | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The memory space (default `memory`). */
  readonly memorySpace?: string;
}

interface Recalled {
  readonly locator: Locator;
  readonly note: ParsedNote;
  readonly mtimeMs: number;
}

/**
 * Every Markdown note under `dir` (recursively), skipping `_`-prefixed folders, temps and conflict
 * copies, and any folder already walked (a link cycle or a second link to it, where the backend tells
 * identities).
 */
async function notesUnder(
  backend: StorageBackend,
  dir: Locator,
  depth = 0,
  seen: Set<string> = new Set(),
): Promise<Recalled[]> {
  if (depth > 8) return [];
  if (depth === 0) {
    const top = await backend.info(dir).catch(() => undefined);
    if (top?.identity !== undefined) seen.add(top.identity);
  }
  const children = await backend.list(dir);
  const names = new Set(children.map((c) => c.name));
  const found: Recalled[] = [];
  for (const child of children) {
    const info = await backend.info(child);
    if (info.isDir) {
      if (info.identity !== undefined && seen.has(info.identity)) continue;
      if (info.identity !== undefined) seen.add(info.identity);
      if (!child.name.startsWith('_')) found.push(...(await notesUnder(backend, child, depth + 1, seen)));
      continue;
    }
    if (!child.name.endsWith('.md') || isTempName(child.name)) continue;
    if (recognizeConflictName(child.name, (original) => names.has(original))) continue;
    const note = parseNote(await backend.read(child));
    if (note.hasFrontmatter && note.status !== undefined && note.status !== 'active') continue;
    found.push({ locator: child, note, mtimeMs: info.mtimeMs });
  }
  return found;
}

/**
 * Without the notes an evolve archived whose successor is listed too: an evolve killed between its
 * writes can leave the renamed successor beside the old note, and recall shows one current version
 * (the index does the same, see `SupersededKeys`). A note newer than the successor stays.
 */
function withoutArchived(entries: Recalled[]): Recalled[] {
  const replacedAt = new Map<string, number>();
  for (const e of entries) {
    const original = e.note.supersedes === undefined ? undefined : archivedNoteKey(e.note.supersedes);
    if (original !== undefined && original !== e.locator.key)
      replacedAt.set(original, Math.max(replacedAt.get(original) ?? Number.NEGATIVE_INFINITY, e.mtimeMs));
  }
  return entries.filter((e) => !(e.mtimeMs <= (replacedAt.get(e.locator.key) ?? Number.NEGATIVE_INFINITY)));
}

function newestFirst(a: Recalled, b: Recalled): number {
  const byDate = (b.note.updated ?? '').localeCompare(a.note.updated ?? '');
  return byDate !== 0 ? byDate : b.mtimeMs - a.mtimeMs;
}

function render(entry: Recalled): string {
  const title = `${entry.note.kind ?? 'note'}/${entry.note.slug ?? entry.locator.name.replace(/\.md$/, '')}`;
  const meta = [entry.note.updated, entry.note.tags.length ? `tags: ${entry.note.tags.join(', ')}` : undefined]
    .filter(Boolean)
    .join(' · ');
  return `### ${title}\n${meta ? `_${meta}_ · ` : ''}\`${entry.locator.key}\`\n\n${entry.note.body.replace(/\s+$/, '')}\n`;
}

/**
 * The interim phase recall (until the memory engine lands): always-load notes, then the project's
 * notes newest first, rendered as Markdown and cut to the phase's budget (≈4 characters a token; whole
 * notes only). `""` when nothing fits or nothing is stored. Read-only.
 */
export async function basicPhaseRecall(backend: StorageBackend, options: BasicRecallOptions = {}): Promise<string> {
  const phase = normalizePhase(options.phase);
  const budget = budgetChars(phaseBudget(phase, { limit: options.limit, env: options.env }));
  const space = options.memorySpace ?? 'memory';
  const always = withoutArchived(await notesUnder(backend, backend.resolve(space, '_always-load'))).sort(newestFirst);
  const project = options.projectLocator
    ? withoutArchived(await notesUnder(backend, options.projectLocator)).sort(newestFirst)
    : [];
  const sections: Array<[string, Recalled[]]> = [
    ['Always load', always],
    [`Project ${options.projectSlug ?? options.projectLocator?.name ?? ''}`.trim(), project],
  ];
  const header = `# Recall (${phase})\n`;
  let out = header;
  for (const [title, entries] of sections) {
    let section = `\n## ${title}\n\n`;
    let added = 0;
    for (const entry of entries) {
      const block = `${render(entry)}\n`;
      if (out.length + section.length + block.length > budget) break;
      section += block;
      added++;
    }
    if (added > 0) out += section;
    if (out.length >= budget) break;
  }
  return out === header ? '' : out.replace(/\n+$/, '\n');
}
