import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildNote } from '@agentm/core';
import type { TFile } from 'obsidian';
import { describe, expect, it } from 'vitest';
import { runAgentm } from '../../../test/helpers/cli.js';
import { relatedQuery } from '../src/related/related-query.js';
import { RELATED_VIEW_TYPE, RelatedView } from '../src/related/related-view.js';
import { unloadPlugin } from './fake-obsidian/testing.js';
import { openByCommand, startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

const note = (kind: string, slug: string, body: string, group: string) => {
  const n = buildNote({ kind, slug, body, group }, { now: new Date(2026, 0, 10) });
  return { [n.locator.key]: n.content };
};

const APP = 'desk/projects/app';
const NOTES = {
  ...note('fix', 'watcher-debounce', '# Debounce the file watcher\n\nWatchers fire twice on rename.', APP),
  ...note('convention', 'rename-events', '# Rename events\n\nA rename arrives as delete and create.', APP),
  ...note('convention', 'flaky-retry', '# Flaky tests\n\nRetry a flaky test once, then fail.', APP),
  ...note('fix', 'inotify-limits', '# Watcher limits\n\nRaise the inotify watch limit for big vaults.', 'memory'),
  ...note(
    'fix',
    'other-watcher',
    '# Watcher in another project\n\nIts watcher fires on rename too.',
    'desk/projects/other',
  ),
};
const ACTIVE = `${APP}/fix/watcher-debounce.md`;

/** Opens the related memories view through its command and returns it. */
function openRelated(s: Started): Promise<RelatedView> {
  return openByCommand(s, 'open-related-memories', RELATED_VIEW_TYPE, RelatedView);
}

async function openNote(s: Started, path: string): Promise<void> {
  await s.v.app.workspace.getLeaf(false).openFile(s.v.app.vault.getFileByPath(path)!);
}

/** The view's header and listed paths, once the header names `subject`. */
async function shown(view: RelatedView, subject: string): Promise<string[]> {
  await until(() => expect(view.contentEl.querySelector('.agentm-related-header')?.textContent).toBe(subject));
  await view.rendered();
  return Array.from(view.contentEl.querySelectorAll<HTMLElement>('.agentm-related-item')).map(
    (e) => e.dataset['path']!,
  );
}

describe('related memories beside the active note', () => {
  it('lists what recall ranks highest in the note’s project plus global notes, never the note itself — as the CLI ranks it', async () => {
    const s = await startWithPlugin(NOTES);
    const view = await openRelated(s);
    await openNote(s, ACTIVE);
    const listed = await shown(view, 'Related to watcher-debounce');
    expect(listed).not.toContain(ACTIVE);
    expect(listed).not.toContain('desk/projects/other/fix/other-watcher.md');
    expect(listed.slice(0, 2).sort()).toEqual([`${APP}/convention/rename-events.md`, 'memory/fix/inotify-limits.md']);

    const text = relatedQuery('watcher-debounce', await s.v.app.vault.read(s.v.app.vault.getFileByPath(ACTIVE)!));
    const cli = await runAgentm(['recall', '--project', 'app', '--limit', '11', '--json', text], {
      home: s.v.home,
      env: { MEMORY_VAULT_PATH: s.v.dir, XDG_CACHE_HOME: s.v.cache },
    });
    expect(cli.stderr).toBe('');
    const ranked = (JSON.parse(cli.stdout) as { items: Array<{ locator: string }> }).items.map((i) => i.locator);
    expect(listed).toEqual(ranked.filter((path) => path !== ACTIVE).slice(0, 10));
    unloadPlugin(s.plugin);
  });

  it('follows the active note once switching settles: one recall for the last of several quick switches', async () => {
    const s = await startWithPlugin(NOTES, { host: { viewDebounceMs: 500 } });
    const view = await openRelated(s);
    await openNote(s, ACTIVE);
    await shown(view, 'Related to watcher-debounce');
    const asked = view.asked;
    // Three notes in a row, as fast as a person flicks through tabs (the events Obsidian fires).
    for (const path of [
      `${APP}/convention/rename-events.md`,
      'memory/fix/inotify-limits.md',
      `${APP}/convention/flaky-retry.md`,
    ])
      s.v.app.workspace.trigger('file-open', s.v.app.vault.getFileByPath(path));
    const listed = await shown(view, 'Related to flaky-retry');
    expect(view.asked).toBe(asked + 1);
    expect(listed).not.toContain(`${APP}/convention/flaky-retry.md`);
    unloadPlugin(s.plugin);
  });

  it('follows the note’s text as saved (an agent rewrote it), never the keystrokes', async () => {
    const s = await startWithPlugin(NOTES);
    const view = await openRelated(s);
    await openNote(s, `${APP}/convention/rename-events.md`);
    expect((await shown(view, 'Related to rename-events'))[0]).not.toBe(`${APP}/convention/flaky-retry.md`);
    const asked = view.asked;
    const leaf = s.v.app.workspace.getLeaf(false);
    s.v.app.workspace.trigger('editor-change', (leaf.view as unknown as { editor: unknown }).editor, leaf.view);
    await new Promise((resolve) => setTimeout(resolve, 50)); // well past the debounce
    expect(view.asked).toBe(asked);
    await writeFile(join(s.v.dir, APP, 'convention/rename-events.md'), '# Flaky tests\n\nRetry a flaky test once.\n');
    await s.v.fake.vault.rescan();
    await until(() => expect(view.asked).toBe(asked + 1));
    expect((await shown(view, 'Related to rename-events'))[0]).toBe(`${APP}/convention/flaky-retry.md`);
    unloadPlugin(s.plugin);
  });

  it('opens a memory’s note when it is clicked; says what to do with no note open', async () => {
    const s = await startWithPlugin(NOTES);
    const view = await openRelated(s);
    expect(view.contentEl.textContent).toContain('Open a note to see the memories related to it.');
    await openNote(s, ACTIVE);
    await shown(view, 'Related to watcher-debounce');
    const item = view.contentEl.querySelector<HTMLElement>(
      `.agentm-related-item[data-path="${CSS.escape('memory/fix/inotify-limits.md')}"]`,
    )!;
    item.querySelector<HTMLElement>('.agentm-related-title')!.click();
    await until(() =>
      expect((s.v.app.workspace.getActiveFile() as TFile | null)?.path).toBe('memory/fix/inotify-limits.md'),
    );
    await shown(view, 'Related to inotify-limits');
    unloadPlugin(s.plugin);
  });
});
