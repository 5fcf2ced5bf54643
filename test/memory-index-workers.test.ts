import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, MemoryIndex, noteToDocument, recall } from '@agentm/core/memory';
import { DeviceLocalBackend, VaultBackend } from '@agentm/core/backends';
// Internals of the index build, from the same built modules the package entry loads.
import { KeyFeed } from '../packages/core/dist/memory/indexing/feed.js';
import { ReadPool } from '../packages/core/dist/memory/indexing/read-pool.js';
import { tempDir } from './helpers/temp.js';

const WORKER = fileURLToPath(new URL('../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));
const WORDS =
  'lock timeout vault sync conflict cache build test release plan step worker thread index note belief episode'.split(
    ' ',
  );

async function vault(notes: number) {
  const dir = await tempDir();
  const root = join(dir, 'vault');
  const put = async (key: string, text: string) => {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
  };
  for (let i = 0; i < notes; i++) {
    const words = Array.from({ length: 20 + (i % 30) }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
    const key = i % 3 === 0 ? `memory/fix/n${i}.md` : `desk/projects/p${i % 4}/convention/n${i}.md`;
    const front =
      i % 5 === 0
        ? `---\ntype: fix\nstatus: active\nnote: "quoted: forces YAML"\ntags: [t${i % 3}]\n---\n\n`
        : `---\ntype: convention\nstatus: ${i % 11 === 0 ? 'pruned' : 'active'}\nupdated: 2026-01-0${1 + (i % 9)}\n---\n\n`;
    await put(key, `${front}# Note ${i}\n\n${words}\n`);
  }
  await put(
    'desk/projects/p1/_harness/progress.md',
    '# Progress\n\n- 2026-01-05T10:00:00Z the lock timed out\n- 2026-01-05T11:00:00Z the build cache was stale\n',
  );
  await put('desk/projects/p1/convention/n1 (conflicted copy 2026-01-05).md', 'a conflict copy\n');
  await put('memory/fix/no-frontmatter.md', 'Just a body about the vault lock.\n');
  // A directory whose name looks like a note: the workers find out and the build walks it.
  await put(
    'memory/fix/odd.md/inner.md',
    '---\ntype: fix\n---\n\nA note inside a folder named like a note: release worker.\n',
  );
  return { dir, root };
}

describe('a cold index build with read workers', { timeout: 60_000 }, () => {
  it('builds the same index as one thread, and recall answers the same', async () => {
    const v = await vault(1200);
    const open = (name: string, workerScript?: string) =>
      MemoryIndex.open({
        backend: new DeviceLocalBackend({ root: v.root }),
        toDocument: noteToDocument,
        indexRoot: join(v.dir, name),
        lockRoot: join(v.dir, 'locks'),
        workerScript,
        workers: 2,
      });
    const pooled = await open('pooled', WORKER);
    const single = await open('single');
    const a = await pooled.refresh();
    const b = await single.refresh();
    expect(a.readWorkers).toBe(2);
    expect(b.readWorkers).toBeUndefined();
    expect({ ...a, readWorkers: undefined }).toEqual({ ...b, readWorkers: undefined });
    const docs = (index: MemoryIndex) =>
      [...index.state.docs.values()].map(({ slot: _slot, ...d }) => d).sort((x, y) => x.id.localeCompare(y.id));
    expect(docs(pooled)).toEqual(docs(single));
    expect(new Map(pooled.state.files.entries())).toEqual(new Map(single.state.files.entries()));
    expect(pooled.state.docs.has('memory/fix/odd.md/inner.md')).toBe(true);
    for (const text of ['vault lock', 'build cache stale', 'release plan', 'worker thread index', 'note 42']) {
      for (const project of [undefined, 'p1']) {
        // Every match (k large): equal scores may rank in another order (slots differ), so compare sorted.
        const strip = (r: Awaited<ReturnType<typeof recall>>) =>
          r.items.map((i) => `${i.score.toFixed(12)} ${i.id}`).sort();
        const query = { text, project, now: 0, k: 100_000 };
        expect(strip(await recall(pooled, query)), text).toEqual(strip(await recall(single, query)));
      }
    }
    // The snapshot written by the pooled build loads and answers like the live index.
    const reloaded = await open('pooled', WORKER);
    expect(reloaded.loadStatus).toBe('loaded');
    expect(docs(reloaded)).toEqual(docs(pooled));
  });

  it('stays on one thread where it must: another mapper, or a worker script that is not there', async () => {
    const v = await vault(20);
    const backend = new VaultBackend({ root: v.root, lockRoot: join(v.dir, 'locks') });
    const other = await MemoryIndex.open({
      backend,
      toDocument: (l, t, i) => noteToDocument(l, t, i),
      indexRoot: join(v.dir, 'a'),
      lockRoot: join(v.dir, 'locks'),
      workerScript: WORKER,
    });
    expect((await other.refresh()).readWorkers).toBeUndefined();
    const missing = await MemoryIndex.open({
      backend,
      toDocument: noteToDocument,
      indexRoot: join(v.dir, 'b'),
      lockRoot: join(v.dir, 'locks'),
      workerScript: join(v.dir, 'nope.js'),
    });
    const report = await missing.refresh();
    expect([report.readWorkers, report.documents]).toEqual([undefined, other.state.docs.size]);
  });
});

describe('read pool', () => {
  it('starts one more worker once the walk has found more than 20 000 files, and reads them all', async () => {
    const dir = await tempDir();
    const root = join(dir, 'vault');
    await mkdir(root, { recursive: true });
    const pool = ReadPool.start(WORKER, { root, layout: DEFAULT_LAYOUT }, 1, 2)!;
    try {
      // Files that do not exist: each answer is quick ("missing"), and every key must come back once.
      const keys = Array.from({ length: 25_000 }, (_, i) => `memory/fix/gone-${i}.md`);
      const seen = new Set<string>();
      await pool.run(KeyFeed.of(keys), new Map(), (batch) => {
        for (const key of batch.files.keys) seen.add(key);
      });
      expect(seen.size).toBe(keys.length);
      expect(pool.size).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
