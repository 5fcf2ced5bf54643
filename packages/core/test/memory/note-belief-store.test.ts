import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fileSnapshot, tempDir } from '../../../../test/helpers/temp.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { Locator } from '../../src/seam/locator.js';
import { NoteValidationError, UnknownKindError } from '../../src/memory/notes/errors.js';
import { parseNote, serializeNote } from '../../src/index.js';
import { beliefNoteType } from '../../src/memory/consolidation/belief-kinds.js';
import { type BeliefDraft } from '../../src/memory/consolidation/belief-store.js';
import { consolidate } from '../../src/memory/consolidation/consolidate.js';
import { watermarkLocatorFor } from '../../src/memory/consolidation/episodes-source.js';
import { noteBeliefStore } from '../../src/memory/consolidation/note-belief-store.js';
import { type NoteFields } from '../../src/memory/notes/format.js';
import { patchNoteFields } from '../../src/memory/notes/patch.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 10);
const iso = (ms: number) => new Date(ms).toISOString();
const EPISODE = 'desk/projects/agentm/_harness/progress.md#0123456789abcdef';

/** A note's frontmatter as YAML 1.2 types it (booleans and numbers, not the failsafe text `parseNote` keeps). */
const typedFields = (text: string): NoteFields => parseYaml(text.slice(4, text.indexOf('\n---\n'))) as NoteFields;

async function vault() {
  const dir = await tempDir();
  const root = join(dir, 'Agent');
  const backend = new VaultBackend({ root, lockRoot: join(dir, 'locks') });
  return { dir, root, backend };
}

const draft = (over: Partial<BeliefDraft> = {}): BeliefDraft => ({
  owner: 'agentm',
  kind: 'fact',
  statement: 'The vault lock times out after ten seconds.',
  confidence: 0.5,
  reinforceCount: 1,
  derivedFrom: [EPISODE, 'desk/projects/agentm/_harness/progress.md#fedcba9876543210'],
  createdMs: T0,
  ...over,
});

const files = fileSnapshot;

describe('belief notes (NoteBeliefStore over the notes module)', () => {
  it('writes a belief in agentm key order in the project folder, and it round-trips through parseNote/serializeNote byte for byte', async () => {
    const { root, backend } = await vault();
    const store = noteBeliefStore(backend);
    const belief = await store.createBelief(draft());
    expect(belief.id).toMatch(/^desk\/projects\/agentm\/reference\/the-vault-lock-times-out-after-[0-9a-f]{6}\.md$/);
    const text = await readFile(join(root, belief.id), 'utf8');
    const day = new Date(T0);
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    expect(text).toBe(
      [
        '---',
        'type: reference',
        'status: active',
        'altitude: artifact',
        `created: ${date}`,
        `updated: ${date}`,
        'tags: [belief]',
        'group: desk/projects/agentm',
        `slug: ${belief.id.split('/').pop()!.replace(/\.md$/, '')}`,
        'fingerprint: ' + parseNote(text).fingerprint,
        'always_load: false',
        `derived_from: [${EPISODE}, desk/projects/agentm/_harness/progress.md#fedcba9876543210]`,
        'confidence: 0.5',
        'reinforce_count: 1',
        `last_reinforced: ${iso(T0)}`,
        'decay_windows: 0',
        '---',
        '',
        'The vault lock times out after ten seconds.',
        '',
      ].join('\n'),
    );
    const parsed = parseNote(text);
    expect(parsed).toMatchObject({
      kind: 'reference',
      status: 'active',
      confidence: 0.5,
      reinforceCount: 1,
      lastReinforced: iso(T0),
      decayWindows: 0,
      derivedFrom: draft().derivedFrom,
    });
    expect(serializeNote(typedFields(text), parsed.body)).toBe(text);
    expect(await store.listActiveBeliefs('agentm')).toEqual([belief]);
  });

  it("maps memQL's fact/preference/outcome to memory types and refuses record kinds and unknown kinds", async () => {
    expect(['fact', 'preference', 'outcome', 'convention', 'decision'].map((k) => beliefNoteType(k))).toEqual([
      'reference',
      'preference',
      'fix',
      'convention',
      'convention',
    ]);
    expect(() => beliefNoteType('brief')).toThrow(NoteValidationError);
    expect(() => beliefNoteType('brief')).toThrow(/record kind "brief".*memory type/);
    expect(() => beliefNoteType('hunch')).toThrow(UnknownKindError);
    const { root, backend } = await vault();
    const store = noteBeliefStore(backend);
    expect((await store.createBelief(draft({ kind: 'outcome', statement: 'Pinning pnpm fixed the CI.' }))).id).toMatch(
      /^desk\/projects\/agentm\/fix\//,
    );
    await expect(store.createBelief(draft({ kind: 'brief' }))).rejects.toBeInstanceOf(NoteValidationError);
    expect(Object.keys(await files(root)).filter((k) => k.includes('/brief/'))).toEqual([]);
  });

  it('lists only the active beliefs of the project: not plain notes, pruned beliefs, other projects, _harness or conflict copies', async () => {
    const { root, backend } = await vault();
    const store = noteBeliefStore(backend);
    const kept = await store.createBelief(draft());
    const pruned = await store.createBelief(draft({ statement: 'An old belief.' }));
    await store.updateBelief(pruned, { status: 'pruned', confidence: 0.1 });
    await store.createBelief(draft({ owner: 'other', statement: 'Another project.' }));
    await backend.write(
      new Locator('desk/projects/agentm/convention/plain.md'),
      serializeNote({ type: 'convention', status: 'active', slug: 'plain' }, 'A plain note.'),
    );
    await backend.write(
      new Locator('desk/projects/agentm/_harness/belief.md'),
      await readFile(join(root, kept.id), 'utf8'),
    );
    await writeFile(
      join(root, kept.id.replace(/\.md$/, ' (conflicted copy 2026-01-05).md')),
      await readFile(join(root, kept.id), 'utf8'),
    );
    expect((await noteBeliefStore(backend).listActiveBeliefs('agentm')).map((b) => b.id)).toEqual([kept.id]);
    expect(await store.listActiveBeliefs('nobody')).toEqual([]);
  });

  it('updates only the changed fields with a compare-and-swap; a note edited meanwhile is left alone', async () => {
    const { root, backend } = await vault();
    const store = noteBeliefStore(backend, { now: () => new Date(T0 + 40 * DAY) });
    const created = await store.createBelief(draft());
    const [listed] = await store.listActiveBeliefs('agentm');
    const path = join(root, created.id);
    const before = await readFile(path, 'utf8');
    const updated = await store.updateBelief(listed!, { confidence: 0.4, decayWindows: 1 });
    expect(updated).toMatchObject({ confidence: 0.4, decayWindows: 1, reinforceCount: 1 });
    const after = await readFile(path, 'utf8');
    const parsed = parseNote(before);
    const localDay = (ms: number) => {
      const d = new Date(ms);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    expect(after).toBe(
      serializeNote(
        { ...typedFields(before), updated: localDay(T0 + 40 * DAY), confidence: 0.4, decay_windows: 1 },
        parsed.body,
      ),
    );

    const [again] = await store.listActiveBeliefs('agentm');
    await writeFile(path, after.replace('The vault lock', 'The VAULT lock'));
    const edited = await readFile(path, 'utf8');
    await expect(store.updateBelief(again!, { confidence: 0.3 })).rejects.toBeInstanceOf(ConcurrentModificationError);
    expect(await readFile(path, 'utf8')).toBe(edited);
  });

  it('keeps keys it does not know and the body bytes when patching a hand-edited note', () => {
    const text =
      '---\ntype: reference\nstatus: active\nmy_key: kept\nconfidence: 0.5\nreinforce_count: 1\n---\n\nBody\r\nwith CRLF\n\n';
    expect(patchNoteFields(text, { confidence: 0.65, reinforce_count: 2 })).toBe(
      '---\ntype: reference\nstatus: active\nconfidence: 0.65\nreinforce_count: 2\nmy_key: kept\n---\n\nBody\r\nwith CRLF\n\n',
    );
    expect(() => patchNoteFields('no frontmatter', { confidence: 1 })).toThrow(NoteValidationError);
  });

  it('quotes provenance with commas, brackets or ": " so it reads back exactly', async () => {
    const { backend } = await vault();
    const derivedFrom = ['a, b', '[x]', 'p: q #r', 'plain#0123'];
    const belief = await noteBeliefStore(backend).createBelief(draft({ derivedFrom }));
    const text = await backend.read(backend.resolve(belief.id));
    expect(text).toContain("\nderived_from: ['a, b', '[x]', 'p: q #r', plain#0123]\n");
    expect(parseNote(text).derivedFrom).toEqual(derivedFrom);
  });

  it('follows the projects-space probe: a project under projects/ gets its beliefs there', async () => {
    const { backend } = await vault();
    await backend.write(new Locator('projects/legacy/_harness/progress.md'), '# Progress\n');
    const belief = await noteBeliefStore(backend).createBelief(draft({ owner: 'legacy' }));
    expect(belief.id.startsWith('projects/legacy/reference/')).toBe(true);
  });
});

describe('consolidation over belief notes', () => {
  const progress = [
    `- ${iso(T0)} the vault lock timed out while the sync client held files`,
    `- ${iso(T0 + 60_000)} the vault lock timed out while the sync client held files again`,
    `- ${iso(T0 + 120_000)} released v1.2 to the registry`,
  ].join('\n');

  it('writes real belief notes; a second run changes nothing; decay is applied once per window', async () => {
    const { root, backend } = await vault();
    await backend.write(new Locator('desk/projects/agentm/_harness/progress.md'), `# Progress\n\n${progress}\n`);
    const run = (now: number) =>
      consolidate({
        backend,
        project: 'agentm',
        beliefs: noteBeliefStore(backend, { now: () => new Date(now) }),
        watermark: watermarkLocatorFor('agentm'),
        now,
      });
    const first = await run(T0 + DAY);
    expect(first.created).toHaveLength(1);
    const id = first.created[0]!.id!;
    const note = parseNote(await readFile(join(root, id), 'utf8'));
    expect(note).toMatchObject({
      kind: 'reference',
      status: 'active',
      confidence: 0.5,
      reinforceCount: 1,
      body: 'the vault lock timed out while the sync client held files\n',
    });
    expect(note.derivedFrom).toHaveLength(2);
    const snapshot = await files(root);
    expect(await run(T0 + DAY + 3_600_000)).toMatchObject({
      episodes: 0,
      created: [],
      reinforced: [],
      decayed: [],
      pruned: [],
    });
    expect(await files(root)).toEqual(snapshot);

    const decayed = await run(T0 + 31 * DAY);
    expect(decayed.decayed).toEqual([{ id, from: 0.5, to: 0.4 }]);
    expect(parseNote(await readFile(join(root, id), 'utf8'))).toMatchObject({ confidence: 0.4, decayWindows: 1 });
    const afterDecay = await files(root);
    expect((await run(T0 + 32 * DAY)).decayed).toEqual([]);
    expect(await files(root)).toEqual(afterDecay);
  });
});
