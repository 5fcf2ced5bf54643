import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { evolveNote } from '../../src/memory/notes/evolve.js';
import { NoteEvolveError, NoteExistsError } from '../../src/memory/notes/errors.js';
import { parseNote } from '../../src/index.js';
import { saveNote } from '../../src/memory/notes/save.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const DAY1 = new Date(2026, 5, 1, 9);
const DAY2 = new Date(2026, 5, 2, 9);

async function vault(): Promise<VaultBackend> {
  const dir = await tempDir();
  return new VaultBackend({ root: join(dir, 'Vault', 'Agent'), lockRoot: join(dir, 'locks') });
}

describe('saveNote', () => {
  it('writes the note through the backend, byte for byte', async () => {
    const backend = await vault();
    const note = await saveNote(
      backend,
      { kind: 'fix', slug: 'npm-ci', body: 'use npm ci\n', tags: ['ci'] },
      { now: DAY1 },
    );
    expect(await readFile(join(backend.root, 'memory', 'fix', 'npm-ci.md'), 'utf8')).toBe(note.content);
  });

  it('never overwrites; the error says how to supersede', async () => {
    const backend = await vault();
    await saveNote(backend, { kind: 'fix', slug: 'x', body: 'one\n' }, { now: DAY1 });
    const error = await saveNote(backend, { kind: 'fix', slug: 'x', body: 'two\n' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoteExistsError);
    expect((error as Error).message).toMatch(/memory\/fix\/x\.md.*never overwrites.*evolve/);
    expect(parseNote(await backend.read(backend.resolve('memory/fix/x.md'))).body).toBe('one\n');
  });

  it('of concurrent savers of one slug exactly one wins', async () => {
    const backend = await vault();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => saveNote(backend, { kind: 'idea', slug: 'same', body: `v${i}\n` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason instanceof NoteExistsError),
    ).toBe(true);
  });
});

describe('evolveNote', () => {
  it('archives the old note as superseded and writes the new one with supersedes, under one lock', async () => {
    const backend = await vault();
    const old = await saveNote(
      backend,
      { kind: 'convention', slug: 'style', body: 'tabs\n', tags: ['fmt'] },
      { now: DAY1 },
    );
    const evolved = await evolveNote(
      backend,
      { locator: old.locator, body: 'spaces\n', reason: 'team\nvote' },
      { now: DAY2 },
    );
    expect(evolved.archive.key).toBe('memory/_archive/memory/convention/style.md.20260602.md');
    const archived = await backend.read(evolved.archive);
    expect(archived).toBe(
      old.content
        .replace('status: active', 'status: superseded')
        .replace(
          '---\n\ntabs',
          'superseded_by: memory/convention/style.md\nsuperseded_at: 2026-06-02\nsuperseded_reason: team vote\n---\n\ntabs',
        ),
    );
    const current = parseNote(await backend.read(old.locator));
    expect(current).toMatchObject({
      status: 'active',
      body: 'spaces\n',
      supersedes: evolved.archive.key,
      tags: ['fmt'],
      kind: 'convention',
      created: '2026-06-02',
    });
    // A second evolve the same day gets -2.
    const again = await evolveNote(
      backend,
      { locator: old.locator, body: 'spaces, 2 wide\n', reason: 'clarify' },
      { now: DAY2 },
    );
    expect(again.archive.key).toBe('memory/_archive/memory/convention/style.md.20260602-2.md');
  });

  it('renames: writes <folder>/<new-slug>.md and removes the old file', async () => {
    const backend = await vault();
    const old = await saveNote(backend, { kind: 'fix', slug: 'old-name', body: 'a\n' }, { now: DAY1 });
    const evolved = await evolveNote(
      backend,
      { locator: old.locator, body: 'b\n', reason: 'rename', newSlug: 'new-name' },
      { now: DAY2 },
    );
    expect(evolved.note.locator.key).toBe('memory/fix/new-name.md');
    expect(await backend.exists(old.locator)).toBe(false);
    expect(parseNote(await backend.read(evolved.archive)).supersededBy).toBe('memory/fix/new-name.md');
  });

  it('refuses: no reason, a non-active note, renaming an always-load note — and writes nothing', async () => {
    const backend = new MemoryBackend();
    const note = await saveNote(backend, { kind: 'fix', slug: 'a', body: 'a\n' });
    await expect(evolveNote(backend, { locator: note.locator, body: 'b', reason: ' ' })).rejects.toThrow(
      /non-empty reason/,
    );
    const always = await saveNote(backend, { kind: 'preference', slug: 'p', body: 'p\n', alwaysLoad: true });
    await expect(
      evolveNote(backend, { locator: always.locator, body: 'q', reason: 'r', newSlug: 'q' }),
    ).rejects.toBeInstanceOf(NoteEvolveError);
    await backend.write(
      note.locator,
      (await backend.read(note.locator)).replace('status: active', 'status: superseded'),
    );
    await expect(evolveNote(backend, { locator: note.locator, body: 'b', reason: 'r' })).rejects.toThrow(/not active/);
    expect(await backend.list(backend.resolve('memory'))).not.toContainEqual(backend.resolve('memory', '_archive'));
  });

  it('a note changed by a writer outside the lock is left alone and the archive is undone', async () => {
    const backend = new MemoryBackend();
    const note = await saveNote(backend, { kind: 'fix', slug: 'a', body: 'a\n' });
    const original = backend.write.bind(backend);
    let sneaked = false;
    backend.write = async (locator, content, options) => {
      if (!sneaked && locator.equals(note.locator)) {
        sneaked = true;
        await original(locator, (await backend.read(locator)) + 'edited in Obsidian\n');
      }
      return original(locator, content, options);
    };
    await expect(evolveNote(backend, { locator: note.locator, body: 'b\n', reason: 'r' })).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    expect(await backend.read(note.locator)).toMatch(/edited in Obsidian\n$/);
    expect(await backend.list(backend.resolve('memory', '_archive', 'memory', 'fix'))).toEqual([]);
  });
});

describe('remove (extra verb)', () => {
  it('removes only when the hash still matches, on every backend', async () => {
    for (const backend of [await vault(), new MemoryBackend()]) {
      const loc = backend.resolve('a', 'b.md');
      await backend.write(loc, 'one\n');
      await expect(backend.remove(loc, { expectHash: contentHash('other\n') })).rejects.toBeInstanceOf(
        ConcurrentModificationError,
      );
      expect(await backend.exists(loc)).toBe(true);
      await backend.remove(loc, { expectHash: contentHash('one\n') });
      expect(await backend.exists(loc)).toBe(false);
      await expect(backend.remove(loc)).rejects.toThrow(/not found/);
      await expect(backend.remove(backend.resolve('a'))).rejects.toThrow(/directory/);
    }
  });
});
