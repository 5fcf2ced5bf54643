import { mkdir, readFile, rm, utimes, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { realpathLoose } from '../../src/write-protocol/vault-lock.js';
import { Locator } from '../../src/seam/locator.js';
import { Tier } from '../../src/seam/tiers.js';
import { IndexLocationError, MemoryArgumentError } from '../../src/memory/errors.js';
import { type MemoryIndexOptions } from '../../src/memory/indexing/index-types.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { recall } from '../../src/memory/recall/recall.js';
import { note, testToDocument } from './helpers.js';

async function vault(files: Record<string, string>) {
  const dir = await tempDir();
  const root = join(dir, 'Vault', 'Agent');
  for (const [key, text] of Object.entries(files)) {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
  }
  return {
    dir,
    root,
    write: (key: string, text: string) =>
      mkdir(join(root, key, '..'), { recursive: true }).then(() => writeFile(join(root, key), text)),
  };
}

/** A backend that counts the reads, to prove an incremental refresh reads only what changed. */
class CountingBackend extends DeviceLocalBackend {
  reads: string[] = [];
  override async read(locator: Locator): Promise<string> {
    this.reads.push(locator.key);
    return super.read(locator);
  }
}

async function open(v: { dir: string; root: string }, extra: Partial<MemoryIndexOptions> = {}) {
  const backend = new CountingBackend({ root: v.root });
  const index = await MemoryIndex.open({
    backend,
    toDocument: testToDocument,
    indexRoot: join(v.dir, 'cache', 'agentm', 'index'),
    lockRoot: join(v.dir, 'locks'),
    ...extra,
  });
  return { backend, index };
}

const ids = (index: MemoryIndex) => [...index.state.docs.keys()].sort();
const BASE = {
  'memory/convention/pick-stdlib.md': note('Prefer the standard library over new dependencies.', {
    type: 'convention',
  }),
  'memory/_always-load/who.md': note('The user is Alex.', { always_load: 'true' }),
  'memory/_archive/convention/old.20260101.md': note('Old superseded text.', { status: 'superseded' }),
  'desk/projects/agentm/fix/lock-timeout.md': note('LockTimeout means another writer holds the vault lock.', {
    type: 'fix',
  }),
  'desk/projects/agentm/_harness/PLAN.md': '- [ ] step one\n',
  'desk/projects/agentm/_harness/progress.md':
    '# Progress\n\n- 2026-01-05T10:00:00Z ran the tests\n- 2026-01-05T10:05:00Z fixed the lock timeout\n',
};

describe('MemoryIndex: cold build', () => {
  it('indexes notes and episodes, never PLAN files, archives, temp files or conflict copies', async () => {
    const v = await vault({
      ...BASE,
      'memory/reference/vault.md': note('Vault notes.'),
      'memory/reference/vault.sync-conflict-20260105-101010-ABCDEFG.md': note('Vault notes, other device.'),
      'memory/reference/vault (1).md': note('Drive copy beside its original.'),
      'memory/reference/report (2026).md': note('A report, not a conflict copy.'),
      'memory/reference/.vault.md.123.0123456789abcdef.tmp': 'half written',
    });
    const { index } = await open(v);
    expect(index.loadStatus).toBe('missing');
    const report = await index.refresh();
    expect(report.rebuilt).toBe('missing');
    expect([...report.conflictCopies].sort()).toEqual([
      'memory/reference/vault (1).md',
      'memory/reference/vault.sync-conflict-20260105-101010-ABCDEFG.md',
    ]);
    const keys = ids(index);
    expect(keys.filter((k) => !k.includes('#'))).toEqual([
      'desk/projects/agentm/fix/lock-timeout.md',
      'memory/_always-load/who.md',
      'memory/convention/pick-stdlib.md',
      'memory/reference/report (2026).md',
      'memory/reference/vault.md',
    ]);
    expect(keys.filter((k) => k.includes('#')).length).toBe(2);
    expect(index.state.docs.get('memory/_always-load/who.md')!.alwaysLoad).toBe(true);
    expect(index.state.docs.get('desk/projects/agentm/fix/lock-timeout.md')!.owner).toBe('agentm');
  });

  it('lives in the cache dir keyed by the sha256 of the real memory root, never in the vault', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    expect(index.dir).toBe(join(v.dir, 'cache', 'agentm', 'index', contentHash(realpathLoose(v.root))));
    const backend = new DeviceLocalBackend({ root: v.root });
    await expect(
      MemoryIndex.open({ backend, toDocument: testToDocument, indexDir: join(v.root, '.agentm-index') }),
    ).rejects.toBeInstanceOf(IndexLocationError);
    const defaulted = await MemoryIndex.open({
      backend,
      toDocument: testToDocument,
      env: { XDG_CACHE_HOME: join(v.dir, 'xdg') },
    });
    expect(defaulted.dir).toBe(join(v.dir, 'xdg', 'agentm', 'index', contentHash(realpathLoose(v.root))));
  });
});

describe('MemoryIndex: incremental refresh', () => {
  it('re-reads only the edited note, and recall sees the edit', async () => {
    const v = await vault(BASE);
    const { index, backend } = await open(v);
    await index.refresh();
    await v.write(
      'desk/projects/agentm/fix/lock-timeout.md',
      note('LockTimeout: wait for the heartbeat to go stale, then retry.', { type: 'fix' }),
    );
    backend.reads = [];
    const report = await index.refresh();
    expect(backend.reads).toEqual(['desk/projects/agentm/fix/lock-timeout.md']);
    expect(report).toMatchObject({ rebuilt: undefined, indexed: 1, removed: 0, unchanged: 3 });
    const hits = await recall(index, { text: 'heartbeat stale', project: 'agentm' });
    expect(hits.items.map((i) => i.id)).toEqual(['desk/projects/agentm/fix/lock-timeout.md']);
  });

  it('only records the new mtime when a file was touched but its bytes are the same', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(v.root, 'memory/convention/pick-stdlib.md'), later, later);
    const report = await index.refresh();
    expect(report).toMatchObject({ indexed: 0, touched: 1 });
    expect((await index.refresh()).read).toBe(0);
  });

  it('reflects a deletion and a rename, and keeps a new conflict copy and a temp file out', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    await rm(join(v.root, 'memory/convention/pick-stdlib.md'));
    await rename(
      join(v.root, 'desk/projects/agentm/fix/lock-timeout.md'),
      join(v.root, 'desk/projects/agentm/fix/vault-lock-timeout.md'),
    );
    await v.write(
      'desk/projects/agentm/fix/vault-lock-timeout (conflicted copy 2026-01-05 101010).md',
      note('other device'),
    );
    await v.write('memory/convention/.x.md.99.0123456789abcdef.tmp', 'partial');
    const report = await index.refresh();
    expect(report).toMatchObject({ indexed: 1, removed: 2 });
    expect(ids(index).filter((k) => !k.includes('#'))).toEqual([
      'desk/projects/agentm/fix/vault-lock-timeout.md',
      'memory/_always-load/who.md',
    ]);
    const hits = await recall(index, { text: 'lock timeout', project: 'agentm', kinds: ['fix'] });
    expect(hits.items.map((i) => i.locator)).toEqual(['desk/projects/agentm/fix/vault-lock-timeout.md']);
  });

  it('keeps episode ids of untouched entries when a progress file grows', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    const before = ids(index).filter((k) => k.includes('#'));
    await v.write(
      'desk/projects/agentm/_harness/progress.md',
      `${BASE['desk/projects/agentm/_harness/progress.md']}- 2026-01-05T10:09:00Z published v1 to the mirror\n`,
    );
    await index.refresh();
    const after = ids(index).filter((k) => k.includes('#'));
    expect(after.length).toBe(3);
    expect(after).toEqual(expect.arrayContaining(before));
  });

  it('updates just the locators it is told about', async () => {
    const v = await vault(BASE);
    const { index, backend } = await open(v);
    await index.refresh();
    await v.write('memory/reference/new.md', note('Brand new reference about caches.'));
    await rm(join(v.root, 'memory/convention/pick-stdlib.md'));
    backend.reads = [];
    const report = await index.update([
      new Locator('memory/reference/new.md'),
      new Locator('memory/convention/pick-stdlib.md'),
    ]);
    expect(backend.reads).toEqual(['memory/reference/new.md']);
    expect(report).toMatchObject({ indexed: 1 });
    expect(index.state.docs.has('memory/reference/new.md')).toBe(true);
    expect(index.state.docs.has('memory/convention/pick-stdlib.md')).toBe(false);
  });
});

describe('MemoryIndex: persistence', () => {
  it('a second process opening the index sees the same documents, without rebuilding', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    await v.write('memory/reference/new.md', note('Journal entry survives a restart.'));
    await index.refresh();
    const { index: again, backend } = await open(v);
    expect(again.loadStatus).toBe('loaded');
    expect(ids(again)).toEqual(ids(index));
    expect((await recall(again, { text: 'journal restart' })).items[0]!.id).toBe('memory/reference/new.md');
    const report = await again.refresh();
    expect(report).toMatchObject({ rebuilt: undefined, read: 0 });
    expect(backend.reads).toEqual([]);
  });

  it('folds the journal into a new snapshot past its size limit', async () => {
    const v = await vault(BASE);
    const { index } = await open(v, { journalLimitBytes: 1 });
    await index.refresh();
    const snap = await readFile(join(index.dir, 'index.snap'));
    await v.write('memory/reference/new.md', note('Compaction.'));
    await index.refresh();
    expect((await readFile(join(index.dir, 'index.snap'))).equals(snap)).toBe(false);
    await expect(readFile(join(index.dir, 'journal.log'))).rejects.toMatchObject({ code: 'ENOENT' });
    const { index: again } = await open(v);
    expect(ids(again)).toEqual(ids(index));
  });

  it('compact folds the journal into a new snapshot: the next process replays nothing and finds everything', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    expect(index.changesPending).toBe(false);
    expect(await index.compact()).toBe(false); // nothing to fold: the snapshot stays
    const snap = await readFile(join(index.dir, 'index.snap'));
    await v.write('memory/reference/new.md', note('Folded into the snapshot.'));
    await index.update([new Locator('memory/reference/new.md')]);
    await rm(join(v.root, 'memory/convention/pick-stdlib.md'));
    await index.update([new Locator('memory/convention/pick-stdlib.md')]);
    expect(await readFile(join(index.dir, 'journal.log'), 'utf8')).toContain('"op":"put"');
    expect(index.changesPending).toBe(true);

    expect(await index.compact()).toBe(true);
    expect(index.changesPending).toBe(false);
    expect((await readFile(join(index.dir, 'index.snap'))).equals(snap)).toBe(false);
    await expect(readFile(join(index.dir, 'journal.log'))).rejects.toMatchObject({ code: 'ENOENT' });
    const { index: again } = await open(v);
    expect(ids(again)).toEqual(ids(index));
    expect(ids(again)).toContain('memory/reference/new.md');
    expect(ids(again)).not.toContain('memory/convention/pick-stdlib.md');
    expect((await recall(again, { text: 'folded snapshot' })).items[0]!.id).toBe('memory/reference/new.md');
    expect(await again.compact()).toBe(false);
  });

  it('a journal of marks only is not compacted (replaying marks reads no column)', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    await index.refresh(); // a second walk: its marks are journaled
    expect(await readFile(join(index.dir, 'journal.log'), 'utf8')).toContain('"op":"marks"');
    expect(index.changesPending).toBe(false);
    expect(await index.compact()).toBe(false);
  });

  it("two open indexes (two editor windows) see each other's updates", async () => {
    const v = await vault(BASE);
    const { index: a } = await open(v);
    await a.refresh();
    const { index: b } = await open(v);
    await v.write('memory/reference/from-a.md', note('Written while both windows are open.'));
    await a.update([new Locator('memory/reference/from-a.md')]);
    await b.sync();
    expect(b.state.docs.has('memory/reference/from-a.md')).toBe(true);
    const report = await b.refresh();
    expect(report.read).toBe(0);
  });

  it.each([
    ['missing', async (dir: string) => rm(dir, { recursive: true, force: true })],
    [
      'corrupt',
      async (dir: string) =>
        writeFile(join(dir, 'index.snap'), (await readFile(join(dir, 'index.snap'))).subarray(0, 200)),
    ],
    [
      'corrupt',
      async (dir: string) => {
        const bytes = await readFile(join(dir, 'index.snap'));
        bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0xff;
        await writeFile(join(dir, 'index.snap'), bytes);
      },
    ],
    [
      'outdated',
      async (dir: string) => {
        const bytes = await readFile(join(dir, 'index.snap'));
        bytes.writeUInt32LE(0, 8);
        await writeFile(join(dir, 'index.snap'), bytes);
      },
    ],
  ] as const)('rebuilds an index that is %s, losing nothing', async (status, damage) => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    const want = ids(index);
    await damage(index.dir);
    const { index: again } = await open(v);
    expect(again.loadStatus).toBe(status);
    expect(ids(again)).toEqual([]);
    const report = await again.refresh();
    expect(report.rebuilt).toBe(status);
    expect(ids(again)).toEqual(want);
  });

  it('ignores a corrupt journal and recovers its changes from the notes', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    await v.write('memory/reference/new.md', note('Only in the journal.'));
    await index.refresh();
    await writeFile(join(index.dir, 'journal.log'), '{"schema": 1, "snaps');
    const { index: again } = await open(v);
    expect(again.state.docs.has('memory/reference/new.md')).toBe(false);
    await again.refresh();
    expect(again.state.docs.has('memory/reference/new.md')).toBe(true);
  });

  it('keeps the journal up to a torn last line, and rewrites it whole before appending again', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.refresh();
    await v.write('memory/reference/one.md', note('First journalled note.'));
    await index.refresh();
    await v.write('memory/reference/two.md', note('Second journalled note.'));
    await index.refresh();
    const path = join(index.dir, 'journal.log');
    const lines = (await readFile(path, 'utf8')).split('\n');
    // header, then each refresh's put and the marks it brings the index to, trailing newline
    expect(lines.map((l) => /"op":"(\w+)"/.exec(l)?.[1] ?? '')).toEqual(['', 'put', 'marks', 'put', 'marks', '']);
    await writeFile(path, `${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 40)}`);
    const { index: again } = await open(v);
    expect(again.state.docs.has('memory/reference/one.md')).toBe(true);
    expect(again.state.docs.has('memory/reference/two.md')).toBe(false);
    await again.refresh();
    expect(again.state.docs.has('memory/reference/two.md')).toBe(true);
    const { index: third } = await open(v);
    expect(ids(third)).toEqual(ids(again));
  });
});

describe('MemoryIndex: DerivedMaintenance', () => {
  it('reindex rebuilds the LOCAL_INDEX tier and refuses the others; changedSince lists changed sources', async () => {
    const v = await vault(BASE);
    const { index } = await open(v);
    await index.reindex(Tier.LOCAL_INDEX);
    expect(index.loadStatus).toBe('loaded');
    expect(() => index.rebuild(Tier.SHARED_ABSTRACTS)).toThrow(MemoryArgumentError);
    const mark = Date.now() + 10_000;
    const later = new Date(mark + 5_000);
    await utimes(join(v.root, 'memory/convention/pick-stdlib.md'), later, later);
    expect((await index.changedSince(mark)).map((l) => l.key)).toEqual(['memory/convention/pick-stdlib.md']);
  });
});
