// Test-only doubles for the two seams the lead connects after merge: a minimal note mapper (the real
// one is the notes module's parseNote) and a simple BeliefStore (the real one writes belief notes).
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import type { Info } from '../../src/seam/info.js';
import type { Locator } from '../../src/seam/locator.js';
import {
  type Belief,
  type BeliefChange,
  type BeliefDraft,
  type BeliefStore,
} from '../../src/memory/consolidation/belief-store.js';
import { type IndexDocument } from '../../src/memory/documents/document.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import { classifySource } from '../../src/memory/documents/layout.js';
import { noteDefaults } from '../../src/memory/documents/source-documents.js';
import { parseTimestamp } from '../../src/memory/documents/timestamps.js';

/** Splits `---\nkey: value\n---\nbody`; values `[a, b]` become lists. Enough for test notes. */
export function splitFrontmatter(text: string): { fields: Record<string, string | string[]>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  if (!m) return { fields: {}, body: text };
  const fields: Record<string, string | string[]> = {};
  for (const line of m[1]!.split('\n')) {
    const kv = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (!kv) continue;
    const v = kv[2]!.trim();
    fields[kv[1]!] = v.startsWith('[')
      ? v
          .slice(1, -1)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v;
  }
  return { fields, body: m[2]!.replace(/^\n/, '') };
}

/** A minimal `toDocument`: the layout's defaults plus a few frontmatter fields. */
export function testToDocument(locator: Locator, text: string, info: Info): IndexDocument {
  const { fields, body } = splitFrontmatter(text);
  const base = noteDefaults(locator, body, info, classifySource(locator.key));
  const str = (k: string) => (typeof fields[k] === 'string' ? (fields[k] as string) : undefined);
  const date = (k: string) => (str(k) ? parseTimestamp(str(k)!) : undefined);
  const title = /^#\s+(.+)$/m.exec(body)?.[1] ?? base.title;
  return {
    ...base,
    kind: str('type') ?? str('kind') ?? base.kind,
    status: str('status') ?? base.status,
    tags: Array.isArray(fields['tags']) ? (fields['tags'] as string[]) : [],
    alwaysLoad: str('always_load') === 'true' || base.alwaysLoad,
    createdMs: date('created') ?? base.createdMs,
    updatedMs: date('updated') ?? base.updatedMs,
    title,
    confidence: str('confidence') ? Number(str('confidence')) : undefined,
  };
}

/** A note in agentm's shape (enough of it for the mapper above). */
export function note(body: string, fields: Record<string, string> = {}): string {
  const lines = Object.entries({ type: 'reference', status: 'active', ...fields }).map(([k, v]) => `${k}: ${v}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}\n`;
}

/** A BeliefStore over a Map, with the compare-and-swap the real one must have. */
export class MapBeliefStore implements BeliefStore {
  readonly beliefs = new Map<string, Belief>();
  writes = 0;
  #seq = 0;
  async listActiveBeliefs(project: string): Promise<Belief[]> {
    return [...this.beliefs.values()].filter((b) => b.owner === project && b.status === 'active');
  }
  async createBelief(draft: BeliefDraft): Promise<Belief> {
    const id = `desk/projects/${draft.owner}/${draft.kind}/belief-${++this.#seq}.md`;
    const belief: Belief = {
      id,
      owner: draft.owner,
      kind: draft.kind,
      statement: draft.statement,
      confidence: draft.confidence,
      reinforceCount: draft.reinforceCount,
      lastReinforcedMs: draft.createdMs,
      decayWindows: 0,
      status: 'active',
      derivedFrom: [...draft.derivedFrom],
    };
    this.beliefs.set(id, belief);
    this.writes++;
    return belief;
  }
  async updateBelief(previous: Belief, change: BeliefChange): Promise<Belief> {
    const current = this.beliefs.get(previous.id);
    if (!current || JSON.stringify(current) !== JSON.stringify(previous))
      throw new ConcurrentModificationError(previous.id, 'x', 'y');
    const next: Belief = { ...current, ...change } as Belief;
    this.beliefs.set(previous.id, next);
    this.writes++;
    return next;
  }
}

/** The time the ranking tests' memories were written (and recalled at). */
export const RANKING_NOW = Date.UTC(2026, 5, 1, 12);

/** A memory `id` saying `text`, written at RANKING_NOW: a fix, active, its title its id and no field. */
export function indexDoc(id: string, text: string, over: Partial<IndexDocument> = {}): IndexDocument {
  return {
    id,
    locator: id,
    owner: '',
    kind: 'fix',
    status: 'active',
    tags: [],
    alwaysLoad: false,
    createdMs: RANKING_NOW,
    updatedMs: RANKING_NOW,
    title: id,
    untitled: true,
    text,
    fingerprint: id,
    derivedFrom: [],
    ...over,
  };
}

/** An index holding `docs`, each a file of its own. */
export function indexStateOf(...docs: IndexDocument[]): IndexState {
  const state = new IndexState();
  for (const d of docs) state.putFile({ key: d.id, mtimeMs: 0, size: 0, hash: d.id }, [d]);
  return state;
}
