// STOPGAP until core exports the notes module's BeliefStore (issue 4's `noteBeliefStore`): the same
// belief notes `agentm consolidate` writes today (packages/core/src/cli/commands/memory-stopgap.ts), so the
// CLI and the extension consolidate one vault together. Replace `beliefStore` with core's when it lands.
import {
  contentHash,
  localDate,
  Locator,
  parseNote,
  parseTimestamp,
  textFingerprint,
  type Belief,
  type BeliefChange,
  type BeliefDraft,
  type BeliefStore,
  type StorageBackend,
} from '@agentm/core';

function render(b: Omit<Belief, 'id'>, slug: string, createdMs: number, space: string): string {
  return [
    '---',
    `type: ${b.kind}`,
    `status: ${b.status}`,
    'altitude: artifact',
    `created: ${localDate(new Date(createdMs))}`,
    `updated: ${localDate(new Date(b.lastReinforcedMs))}`,
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
}

function parse(locator: Locator, text: string): Belief | undefined {
  const note = parseNote(text);
  if (note.confidence === undefined || note.reinforceCount === undefined) return undefined;
  return {
    id: locator.key,
    owner: locator.parts[2] ?? '',
    kind: note.kind ?? 'reference',
    statement: note.body.trim(),
    confidence: note.confidence,
    reinforceCount: note.reinforceCount,
    lastReinforcedMs: parseTimestamp(note.lastReinforced ?? '') ?? 0,
    decayWindows: Number(note.fields['decay_windows'] ?? 0) || 0,
    status: note.status === 'pruned' ? 'pruned' : 'active',
    derivedFrom: note.derivedFrom,
  };
}

/** Belief notes under `<space>/<project>/<kind>/`, written through the backend with CAS. */
export function beliefStore(backend: StorageBackend, space: string): BeliefStore {
  const hashes = new Map<string, string>();
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
      const text = render(belief, slug, draft.createdMs, space);
      await backend.write(locator, text, { expectHash: null });
      hashes.set(locator.key, contentHash(text));
      return { id: locator.key, ...belief };
    },
    async updateBelief(previous: Belief, change: BeliefChange) {
      const locator = new Locator(previous.id);
      const current = await backend.read(locator);
      const note = parseNote(current);
      const next: Belief = { ...previous, ...change };
      const text = render(next, note.slug ?? locator.name.replace(/\.md$/, ''), parseTimestamp(note.created ?? '') ?? next.lastReinforcedMs, space);
      await backend.write(locator, text, { expectHash: hashes.get(previous.id) ?? contentHash(current) });
      hashes.set(previous.id, contentHash(text));
      return next;
    },
  };
}
