// STOPGAP until the notes module (issue 3) lands: the lead replaces this file's three functions with
// config/selection (`memoryStore`), the notes module's parseNote (`toDocument`) and a BeliefStore over
// the notes module's serializer (`beliefStore`). Nothing else in the engine depends on them.
import { processHost } from '../../config/host.js';
import { selectBackend } from '../../selection/select-backend.js';
import type { StorageBackend } from '../../seam/backend.js';
import { Locator } from '../../seam/locator.js';
import { contentHash } from '../../protocol/content-hash.js';
import {
  parseTimestamp,
  textFingerprint,
  type Belief,
  type BeliefChange,
  type BeliefDraft,
  type BeliefStore,
} from '../../memory/engine.js';

/** The store the memory commands use: the selected backend (selection errors propagate). */
export async function memoryStore(env: NodeJS.ProcessEnv): Promise<{ backend: StorageBackend; root: string; protocol: string }> {
  const selected = await selectBackend({ host: processHost(env) });
  const root = (selected.backend as unknown as { root?: string }).root ?? selected.root ?? '';
  return { backend: selected.backend, root, protocol: selected.protocol };
}

function frontmatter(text: string): { fields: Map<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  const fields = new Map<string, string>();
  if (!m) return { fields, body: text };
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*?)\s*$/.exec(line);
    if (kv) fields.set(kv[1]!, kv[2]!);
  }
  return { fields, body: m[2]!.replace(/^\r?\n/, '') };
}

function list(value: string | undefined): string[] {
  if (!value || !value.startsWith('[')) return [];
  return value.slice(1, -1).split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1')).filter(Boolean);
}

/** Notes are read with the notes module's parser. */
export { noteToDocument as toDocument } from '../../memory/note-documents.js';

const day = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** Belief notes under `desk/projects/<project>/<kind>/`, in agentm's key order plus the belief fields. */
export function beliefStore(backend: StorageBackend, space = 'desk/projects'): BeliefStore {
  const hashes = new Map<string, string>();
  const render = (b: Omit<Belief, 'id'>, slug: string, createdMs: number) =>
    [
      '---',
      `type: ${b.kind}`,
      `status: ${b.status}`,
      'altitude: artifact',
      `created: ${day(createdMs)}`,
      `updated: ${day(b.lastReinforcedMs)}`,
      'tags: [belief]',
      `group: ${space}/${b.owner}`,
      `slug: ${slug}`,
      `fingerprint: ${textFingerprint(b.statement)}`,
      'always_load: false',
      `derived_from: [${b.derivedFrom.map((id) => JSON.stringify(id)).join(', ')}]`,
      `confidence: ${b.confidence}`,
      `reinforce_count: ${b.reinforceCount}`,
      `last_reinforced: ${new Date(b.lastReinforcedMs).toISOString()}`,
      `decay_windows: ${b.decayWindows}`,
      '---',
      '',
      `${b.statement}\n`,
    ].join('\n');
  const parse = (locator: Locator, text: string): Belief | undefined => {
    const { fields, body } = frontmatter(text);
    if (!fields.has('confidence') || !fields.has('reinforce_count')) return undefined;
    return {
      id: locator.key,
      owner: locator.parts[2] ?? '',
      kind: fields.get('type') ?? 'reference',
      statement: body.trim(),
      confidence: Number(fields.get('confidence')),
      reinforceCount: Number(fields.get('reinforce_count')),
      lastReinforcedMs: parseTimestamp(fields.get('last_reinforced') ?? '') ?? 0,
      decayWindows: Number(fields.get('decay_windows') ?? 0) || 0,
      status: fields.get('status') === 'pruned' ? 'pruned' : 'active',
      derivedFrom: list(fields.get('derived_from')),
    };
  };
  return {
    async listActiveBeliefs(project) {
      const out: Belief[] = [];
      for (const dir of await backend.list(new Locator(space).child(project))) {
        if (dir.name.startsWith('_')) continue;
        for (const file of await backend.list(dir)) {
          if (!file.name.endsWith('.md')) continue;
          const text = await backend.read(file).catch(() => undefined);
          const belief = text === undefined ? undefined : parse(file, text);
          if (belief?.status === 'active') (out.push(belief), hashes.set(file.key, contentHash(text!)));
        }
      }
      return out;
    },
    async createBelief(draft: BeliefDraft) {
      const words = draft.statement.toLowerCase().match(/[a-z0-9]+/g)?.slice(0, 6).join('-') || 'belief';
      const slug = `${words}-${contentHash(draft.statement).slice(0, 6)}`;
      const locator = new Locator(space).child(draft.owner, draft.kind, `${slug}.md`);
      const belief = { owner: draft.owner, kind: draft.kind, statement: draft.statement, confidence: draft.confidence, reinforceCount: draft.reinforceCount, lastReinforcedMs: draft.createdMs, decayWindows: 0, status: 'active' as const, derivedFrom: draft.derivedFrom };
      const text = render(belief, slug, draft.createdMs);
      await backend.write(locator, text, { expectHash: null });
      hashes.set(locator.key, contentHash(text));
      return { id: locator.key, ...belief };
    },
    async updateBelief(previous: Belief, change: BeliefChange) {
      const locator = new Locator(previous.id);
      const current = await backend.read(locator);
      const { fields } = frontmatter(current);
      const next: Belief = { ...previous, ...change };
      const text = render(next, fields.get('slug') ?? locator.name.replace(/\.md$/, ''), parseTimestamp(fields.get('created') ?? '') ?? next.lastReinforcedMs);
      await backend.write(locator, text, { expectHash: hashes.get(previous.id) ?? contentHash(current) });
      hashes.set(previous.id, contentHash(text));
      return next;
    },
  };
}
