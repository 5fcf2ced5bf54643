import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { classifySource } from '../../src/memory/documents/layout.js';
import { sourceFile, walkSources } from '../../src/memory/indexing/walk.js';
import { Locator } from '../../src/seam/locator.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Every kind of place a walk classifies: global, always-load, typed and untyped project notes, a progress log. */
const SOURCES = [
  'memory/fix/lock-timeouts.md',
  'memory/_always-load/house-rules.md',
  'desk/projects/alpha/convention/tests.md',
  'desk/projects/alpha/loose-note.md',
  'desk/projects/alpha/_harness/progress.md',
  'projects/beta/decision/cache.md',
];
/** What a walk must leave out: an archive, a plan file, a dot-folder, a sync conflict copy, non-Markdown. */
const NOT_SOURCES = [
  'memory/_archive/old.md',
  'desk/projects/alpha/_harness/PLAN.md',
  'memory/.obsidian/workspace.md',
  'memory/fix/lock-timeouts.sync-conflict-20260101-120000-ABCDEFG.md',
  'memory/fix/diagram.png',
];

describe('walkSources over a real folder', () => {
  it('returns every source with its classification, size and mtime, and nothing else', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentm-walk-'));
    dirs.push(root);
    for (const [i, key] of [...SOURCES, ...NOT_SOURCES].entries()) {
      await mkdir(dirname(join(root, key)), { recursive: true });
      await writeFile(join(root, key), `# note ${i}\n${'x'.repeat(i)}\n`);
    }
    const { files } = await walkSources(new DeviceLocalBackend({ root }));
    const byKey = new Map(files.map((f) => [f.locator.key, f]));
    expect([...byKey.keys()].sort()).toEqual([...SOURCES].sort());
    for (const key of SOURCES) {
      const st = await stat(join(root, key));
      expect(byKey.get(key)).toEqual({
        ...classifySource(key),
        locator: new Locator(key),
        mtimeMs: st.mtimeMs,
        size: st.size,
      });
    }
  });
});

describe('sourceFile', () => {
  it('carries exactly the fields of the classification, then the locator, mtime and size', () => {
    for (const key of [...SOURCES, ...NOT_SOURCES]) {
      const cls = classifySource(key);
      const locator = new Locator(key);
      const file = sourceFile(cls, locator, 1234.5, 42);
      // Field by field, not a spread: a field the classification gains and this forgets fails here.
      expect(file).toStrictEqual({ ...cls, locator, mtimeMs: 1234.5, size: 42 });
      expect(Object.keys(file).sort()).toEqual([...Object.keys(cls), 'locator', 'mtimeMs', 'size'].sort());
    }
  });
});
