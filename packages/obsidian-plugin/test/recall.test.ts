import { realpathSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildNote } from '@agentm/core';
import { MemoryIndex } from '@agentm/core/memory';
import { contentHash } from '@agentm/core/write-protocol';
import {
  BOOKKEEPING_TEXT,
  MIXED_PROGRESS_LOG,
  MIXED_PROGRESS_MEMORIES,
  MIXED_PROGRESS_QUERIES,
} from '@agentm/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modalsSettled, nextModal, unloadPlugin } from './fake-obsidian/testing.js';
import { startWithPlugin } from './helpers/plugin.js';
import { recallIndexOf } from './helpers/services.js';
import { until } from './helpers/until.js';

const note = (kind: string, slug: string, body: string, group?: string) =>
  buildNote({ kind, slug, body, ...(group ? { group } : {}) }, { now: new Date(2026, 0, 10) });
const file = (kind: string, slug: string, body: string, group?: string) => {
  const n = note(kind, slug, body, group);
  return { [n.locator.key]: n.content };
};

const NOTES = {
  ...file(
    'fix',
    'flaky-retry',
    '# Flaky test retry\n\nRetry the flaky integration test once before failing the build.',
  ),
  ...file('convention', 'tabs', '# Indentation\n\nUse two spaces, never tabs.'),
};

/** Types into the open recall modal and resolves to its suggestion items once the answer to it shows. */
async function recallFor(query: string): Promise<HTMLElement[]> {
  const input = document.body.querySelector('.prompt-input') as HTMLInputElement;
  const results = document.body.querySelector('.prompt-results') as HTMLElement;
  const before = results.firstElementChild; // the list shown before (re-rendered with new elements)
  input.value = query;
  input.dispatchEvent(new Event('input'));
  await modalsSettled();
  const items = Array.from(results.querySelectorAll<HTMLElement>('.suggestion-item, .suggestion-empty'));
  expect(items[0]).not.toBe(before);
  return items;
}

afterEach(() => vi.restoreAllMocks());

describe('recall (core’s memory engine over the in-vault backend)', () => {
  it('finds a note and opens it; finds a note saved a moment ago and opens it once the vault knows it', async () => {
    const s = await startWithPlugin(NOTES);
    const opened = nextModal();
    s.v.fake.commands.executeCommandById('agentm-vault:recall');
    const recent = Array.from((await opened).modalEl.querySelectorAll('.prompt-results .agentm-recall-title')).map(
      (e) => e.textContent,
    );
    expect(recent.sort()).toEqual(['Flaky test retry', 'Indentation']); // before typing: the most recent memories
    const [hit] = await recallFor('flaky integration');
    expect(hit!.querySelector('.agentm-recall-title')?.textContent).toBe('Flaky test retry');
    expect(hit!.textContent).toContain('fix · memory/fix/flaky-retry.md');
    hit!.click();
    await until(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe('memory/fix/flaky-retry.md'));

    const saved = await s.plugin.services!.saveNote({
      kind: 'workflow',
      slug: 'pin-toolchain',
      tags: [],
      body: '# Pin the toolchain\n\nPin the compiler version in CI.',
    });
    const reopened = nextModal();
    s.v.fake.commands.executeCommandById('agentm-vault:recall');
    await reopened;
    const [fresh] = await recallFor('compiler version');
    expect(fresh!.querySelector('.agentm-recall-title')?.textContent).toBe('Pin the toolchain');
    fresh!.click();
    await s.v.fake.vault.rescan(); // Obsidian's file watcher reports the saved file
    await until(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe(saved.path));
    unloadPlugin(s.plugin);
  });

  it('opens the index lazily, in the user cache dir (never in the vault), then follows vault events incrementally', async () => {
    const s = await startWithPlugin(NOTES);
    const index = recallIndexOf(s.plugin);
    expect(index.opened).toBe(false);
    const refresh = vi.spyOn(MemoryIndex.prototype, 'refresh');
    const update = vi.spyOn(MemoryIndex.prototype, 'update');

    expect((await s.plugin.services!.recall('indentation')).map((h) => h.path)).toEqual(['memory/convention/tabs.md']);
    expect(index.opened).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
    const indexDirs = await readdir(join(s.v.cache, 'agentm', 'index'));
    expect(indexDirs).toEqual([contentHash(realpathSync(s.v.dir))]);
    expect(await readdir(s.v.dir)).toEqual(['memory']); // nothing of the index in the vault

    // Another process edits one note, adds one and deletes one; the vault's watcher reports them.
    await writeFile(
      join(s.v.dir, 'memory/convention/tabs.md'),
      note('convention', 'tabs', '# Indentation\n\nUse hard tabs in Makefiles.').content,
    );
    await writeFile(
      join(s.v.dir, 'memory/fix/cache-bust.md'),
      note('fix', 'cache-bust', '# Cache bust\n\nClear the build cache when the lockfile changes.').content,
    );
    await rm(join(s.v.dir, 'memory/fix/flaky-retry.md'));
    await s.v.fake.vault.rescan();

    expect((await s.plugin.services!.recall('makefiles')).map((h) => h.path)).toEqual(['memory/convention/tabs.md']);
    expect(await s.plugin.services!.recall('spaces')).toEqual([]);
    expect((await s.plugin.services!.recall('lockfile')).map((h) => h.path)).toEqual(['memory/fix/cache-bust.md']);
    expect(await s.plugin.services!.recall('flaky')).toEqual([]);
    expect(refresh).toHaveBeenCalledTimes(1); // no second walk: only the reported files were re-read
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0].map((l) => l.key).sort()).toEqual([
      'memory/convention/tabs.md',
      'memory/fix/cache-bust.md',
      'memory/fix/flaky-retry.md',
    ]);
    unloadPlugin(s.plugin);
  });

  it('is scoped to the active file’s project (its notes and global ones)', async () => {
    const s = await startWithPlugin({
      ...file('fix', 'alpha-widget', '# Alpha widget\n\nThe widget needs a reset.', 'desk/projects/alpha'),
      ...file('fix', 'beta-widget', '# Beta widget\n\nThe widget needs a restart.', 'desk/projects/beta'),
      ...file('fix', 'global-widget', '# Global widget\n\nEvery widget logs.'),
      'desk/projects/alpha/notes/today.md': 'today\n',
    });
    expect((await s.plugin.services!.recall('widget')).map((h) => h.path).sort()).toEqual([
      'desk/projects/alpha/fix/alpha-widget.md',
      'desk/projects/beta/fix/beta-widget.md',
      'memory/fix/global-widget.md',
    ]);
    await s.v.app.workspace.getLeaf(true).openFile(s.v.app.vault.getFileByPath('desk/projects/alpha/notes/today.md')!);
    expect((await s.plugin.services!.recall('widget')).map((h) => h.path).sort()).toEqual([
      'desk/projects/alpha/fix/alpha-widget.md',
      'memory/fix/global-widget.md',
    ]);
    unloadPlugin(s.plugin);
  });

  it('starts over with the new root’s index when the memory root setting changes', async () => {
    const s = await startWithPlugin({
      ...NOTES,
      ...Object.fromEntries(
        Object.entries(file('idea', 'other-root', '# Other root\n\nA flaky idea.')).map(([k, v]) => [`Other/${k}`, v]),
      ),
    });
    expect((await s.plugin.services!.recall('flaky')).map((h) => h.path)).toEqual(['memory/fix/flaky-retry.md']);
    s.plugin.settings.memoryRoot = 'Other';
    await s.plugin.saveSettings();
    expect((await s.plugin.services!.recall('flaky')).map((h) => h.path)).toEqual(['Other/memory/idea/other-root.md']);
    expect((await readdir(join(s.v.cache, 'agentm', 'index'))).sort()).toEqual(
      [contentHash(realpathSync(s.v.dir)), contentHash(realpathSync(join(s.v.dir, 'Other')))].sort(),
    );
    unloadPlugin(s.plugin);
  });
});

describe('bookkeeping is never a memory (issue 19)', () => {
  it('a progress log that mixes every form of bookkeeping: recall shows only its memories, by their titles', async () => {
    const s = await startWithPlugin({ ...NOTES, 'desk/projects/alpha/_harness/progress.md': MIXED_PROGRESS_LOG });
    const titles = new Set<string>();
    for (const query of MIXED_PROGRESS_QUERIES) {
      const hits = await s.plugin.services!.recall(query);
      for (const hit of hits) expect(`${hit.title}\n${hit.snippet}`).not.toMatch(BOOKKEEPING_TEXT);
      for (const hit of hits) titles.add(hit.title);
    }
    for (const title of MIXED_PROGRESS_MEMORIES) expect(titles).toContain(title);
    s.v.fake.commands.executeCommandById('agentm-vault:recall');
    const shown = await recallFor('docs build running done claimed mkdocs');
    expect(shown.map((e) => e.textContent ?? '').join('\n')).not.toMatch(BOOKKEEPING_TEXT);
    expect(shown.map((e) => e.querySelector('.agentm-recall-title')?.textContent)).toContain(
      'The documentation site builds with mkdocs in strict mode.',
    );
    unloadPlugin(s.plugin);
  });
});
