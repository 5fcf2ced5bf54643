import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryIndex, noteDefaults, classifySource, recall, type ToDocument } from '@agentm/core/memory';
import { DeviceLocalBackend } from '@agentm/core/backends';
import { spawnFixture } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

describe('memory index shared by concurrent processes (two editor windows)', () => {
  it('loses no update when several processes index at once, and leaves a loadable index', async () => {
    const dir = await tempDir();
    const root = join(dir, 'vault');
    await mkdir(join(root, 'memory', 'fix'), { recursive: true });
    for (let i = 0; i < 150; i++)
      await writeFile(join(root, 'memory', 'fix', `seed-${i}.md`), `seed note ${i} about the vault lock\n`);
    const indexRoot = join(dir, 'cache');
    const lockRoot = join(dir, 'locks');
    const go = join(dir, 'go');
    const writers = ['a', 'b', 'c', 'd'].map((name) =>
      spawnFixture('index-writer.mjs', [root, indexRoot, lockRoot, name, '10', go]),
    );
    await Promise.all(writers.map((w) => w.waitForLine(/^ready$/)));
    await writeFile(go, '');
    const results = await Promise.all(writers.map((w) => w.exited));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });

    const backend = new DeviceLocalBackend({ root });
    const toDocument: ToDocument = (locator, text, info) =>
      noteDefaults(locator, text, info, classifySource(locator.key));
    const index = await MemoryIndex.open({ backend, toDocument, indexRoot, lockRoot });
    expect(index.loadStatus).toBe('loaded');
    // Without re-reading anything, the index on disk already has every process's notes.
    expect(index.state.docs.size).toBe(150 + 4 * 10);
    const report = await index.refresh();
    expect(report.read).toBe(0);
    const found = await recall(index, { text: 'markercx3' });
    expect(found.items.map((i) => i.id)).toEqual(['memory/reference/c-3.md']);
  });
});
