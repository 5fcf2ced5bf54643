import { statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { appendChanges } from '../../src/write-protocol/change-log.js';
import { withVaultLock } from '../../src/write-protocol/vault-lock.js';
import type { Info } from '../../src/seam/info.js';
import type { Locator } from '../../src/seam/locator.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { RACY } from '../../src/memory/indexing/source-marks.js';
import { racyFoldersAgain } from '../../src/memory/indexing/catch-up.js';
import { note, testToDocument } from './helpers.js';

/** A store whose backend counts `info` and `list` calls: an answer must not stat every note. */
async function store(kind: 'vault' | 'device-local' = 'device-local', notes = 200) {
  const dir = await tempDir();
  const root = join(dir, 'Agent');
  for (let i = 0; i < notes; i++) {
    const key = i % 2 ? `memory/reference/n${i}.md` : `desk/projects/p/fix/n${i}.md`;
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), note(`Filler note number ${i} about nothing in particular.`));
  }
  const lockRoot = join(dir, 'locks');
  const counts = { info: 0, list: 0 };
  const Base = (kind === 'vault' ? VaultBackend : DeviceLocalBackend) as typeof DeviceLocalBackend;
  class Counting extends Base {
    override async info(locator: Locator): Promise<Info> {
      counts.info++;
      return super.info(locator);
    }
    override async list(locator: Locator): Promise<Locator[]> {
      counts.list++;
      return super.list(locator);
    }
  }
  const backend = new Counting({ root, lockRoot });
  const open = (now?: () => number) =>
    MemoryIndex.open({
      backend,
      toDocument: testToDocument,
      indexRoot: join(dir, 'cache', 'index'),
      lockRoot,
      ...(now ? { now } : {}),
    });
  const index = await open();
  await index.refresh();
  return { dir, root, lockRoot, backend, counts, open, index, notes };
}

const ids = (index: MemoryIndex) => [...index.state.docs.keys()];

describe('MemoryIndex.refreshChanges: the answer path', () => {
  for (const kind of ['vault', 'device-local'] as const) {
    it(`a note written through the ${kind} backend is in the next answer, found without stat-ing every note`, async () => {
      const s = await store(kind);
      await s.backend.write(s.backend.resolve('memory', 'fix', 'fresh.md'), note('A brand new fix.'));
      const fresh = await s.open(); // a new process: the index as persisted, nothing in memory
      s.counts.info = 0;
      const report = await fresh.refreshChanges();
      expect(ids(fresh)).toContain('memory/fix/fresh.md');
      expect(report.indexed).toBe(1);
      // The folders (a handful, each listed again: they changed within the clock's racy window of the
      // build) and the note itself, never the 200 notes.
      expect(s.counts.info).toBeLessThan(40);
      // Persisted: the process after it finds nothing to do.
      const after = await s.open();
      expect(ids(after)).toContain('memory/fix/fresh.md');
      expect((await after.refreshChanges()).read).toBe(0);
    });
  }

  it('an edit in place through the backend is re-read even when its size and mtime look unchanged', async () => {
    const s = await store();
    const key = 'memory/reference/n1.md';
    const path = join(s.root, key);
    const before = await readFile(path, 'utf8');
    const { mtime } = statSync(path);
    await s.backend.write(s.backend.resolve(...key.split('/')), before.replace('Filler', 'Zebras'));
    await utimes(path, mtime, mtime); // a coarse clock: the same mtime, and the same size
    const fresh = await s.open();
    await fresh.refreshChanges();
    expect(fresh.state.docs.get(key)?.preview).toContain('Zebras');
  });

  it('a note another program adds, deletes or renames is in (or out of) the next answer: its folder changed', async () => {
    const s = await store();
    const index = await s.open(() => Date.now() + 60_000); // the walk's folder marks are not racy any more
    await index.refresh();
    await mkdir(join(s.root, 'memory', 'idea'), { recursive: true }); // a folder that appeared
    await writeFile(join(s.root, 'memory', 'idea', 'new.md'), note('Found by its folder.'));
    await writeFile(join(s.root, 'memory', 'reference', '.n3.md.tmp'), note('Synced in.'));
    await rename(join(s.root, 'memory', 'reference', '.n3.md.tmp'), join(s.root, 'memory', 'reference', 'synced.md'));
    await rm(join(s.root, 'memory', 'reference', 'n5.md'));
    await rename(join(s.root, 'desk/projects/p/fix/n2.md'), join(s.root, 'desk/projects/p/fix/renamed.md'));
    const report = await index.refreshChanges();
    const docs = ids(index);
    expect(docs).toEqual(expect.arrayContaining(['memory/idea/new.md', 'memory/reference/synced.md']));
    expect(docs).toContain('desk/projects/p/fix/renamed.md');
    expect(docs).not.toContain('memory/reference/n5.md');
    expect(docs).not.toContain('desk/projects/p/fix/n2.md');
    expect(report.removed).toBe(2);
  });

  it('an edit in place by another program waits for the full walk (the revalidation), then is in', async () => {
    const s = await store();
    let clock = Date.now() + 60_000;
    const index = await s.open(() => clock);
    await index.refresh();
    const path = join(s.root, 'memory', 'reference', 'n7.md');
    await writeFile(path, note('Rewritten in place by an editor: quetzal.'));
    await index.refreshChanges();
    expect(index.state.docs.get('memory/reference/n7.md')?.preview).not.toContain('quetzal');
    expect(index.revalidationDue(60_000)).toBe(false);
    clock += 60_000;
    expect(index.revalidationDue(60_000)).toBe(true);
    await index.refresh();
    expect(index.state.docs.get('memory/reference/n7.md')?.preview).toContain('quetzal');
  });

  it('lists a folder again when its mtime was too close to the listing to trust (a coarse clock)', async () => {
    const s = await store();
    // Built just now: the folders' mtimes are within the racy window of the walk.
    expect(Object.values(s.index.marks.folders ?? {})).toContain(RACY);
    const folder = join(s.root, 'memory', 'reference');
    const { mtime } = statSync(folder);
    await writeFile(join(folder, 'same-tick.md'), note('Added in the same clock tick.'));
    await utimes(folder, mtime, mtime); // the folder's mtime did not move
    await s.index.refreshChanges();
    expect(ids(s.index)).toContain('memory/reference/same-tick.md');
  });

  it('an answer that lists racy folders again and finds them still racy persists nothing', async () => {
    const s = await store();
    const walkedMs = s.index.marks.walkedMs!;
    const journal = join(s.index.dir, 'journal.log');
    const before = await readFile(journal, 'utf8').catch(() => '');
    // Listed again at the instant the build's walk began: still too soon after the folders changed.
    const fresh = await s.open(() => walkedMs);
    s.counts.list = 0;
    const report = await fresh.refreshChanges();
    expect(s.counts.list).toBeGreaterThan(0);
    expect(report.read).toBe(0);
    expect(await readFile(journal, 'utf8').catch(() => '')).toBe(before);
    expect(Object.values(fresh.marks.folders ?? {})).toContain(RACY);
  });

  it('a walk lists its racy folders again once the racy window has passed, so that answers need not', async () => {
    const s = await store();
    const marks = s.index.marks;
    expect(Object.values(marks.folders ?? {})).toContain(RACY);
    const source = (now: number) => ({ backend: s.backend, layout: s.index.layout, now });
    // Still inside the window after the walk began: listing them again would not settle them.
    expect(await racyFoldersAgain(s.index.state, marks, source(marks.walkedMs! + 1_000))).toBeUndefined();
    const settled = await racyFoldersAgain(s.index.state, marks, source(Date.now() + 60_000));
    expect(settled?.read).toEqual([]);
    expect(Object.values(settled?.marks.folders ?? {})).not.toContain(RACY);
    expect(Object.keys(settled?.marks.folders ?? {}).sort()).toEqual(
      Object.entries(marks.folders ?? {})
        .filter(([, mark]) => mark === RACY)
        .map(([key]) => key)
        .sort(),
    );
  });

  it('walks when its place in the change log is lost (the log moved on two generations)', async () => {
    const s = await store();
    const log = s.backend.changeLogPath;
    for (let i = 0; i < 30; i++) appendChanges(log, [`memory/reference/x${i}.md`], 200);
    const edited = join(s.root, 'memory', 'reference', 'n9.md');
    await writeFile(edited, note('Only a walk finds this in-place edit: axolotl.'));
    const fresh = await s.open();
    await fresh.refreshChanges();
    expect(fresh.state.docs.get('memory/reference/n9.md')?.preview).toContain('axolotl');
  });

  it('answers from memory without waiting while another process holds the index, and persists nothing', async () => {
    const s = await store();
    await s.backend.write(s.backend.resolve('memory', 'fix', 'busy.md'), note('Written while the index is busy.'));
    const fresh = await s.open();
    let released!: () => void;
    const holding = new Promise<void>((resolve) => (released = resolve));
    let locked!: () => void;
    const lockedNow = new Promise<void>((resolve) => (locked = resolve));
    const holder = withVaultLock(s.index.dir, () => (locked(), holding), { lockRoot: s.lockRoot });
    await lockedNow;
    try {
      await fresh.refreshChanges();
      expect(ids(fresh)).toContain('memory/fix/busy.md');
    } finally {
      released();
      await holder;
    }
    const later = await s.open();
    expect(later.marks.changes).toEqual(s.index.marks.changes); // nothing was persisted
    await later.refreshChanges();
    expect(ids(later)).toContain('memory/fix/busy.md');
  });
});
