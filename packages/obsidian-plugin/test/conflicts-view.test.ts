import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHash, shortHash } from '@agentm/core/write-protocol';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/conflicts/diff.js';
import { htmlWritesSince, shownNotices, snapshot, unloadPlugin } from './fake-obsidian/testing.js';
import { button, card, openConflicts, settle, startWithPlugin } from './helpers/plugin.js';
import { until } from './helpers/until.js';

describe('the conflicts view', () => {
  it('renders every card and diff as DOM nodes, never through innerHTML', async () => {
    const before = snapshot();
    const s = await startWithPlugin({
      'a.md': '<b>bold?</b>\nsame\n',
      'a [Conflict].md': '<script>x()</script>\nsame\n',
    });
    const view = await openConflicts(s);
    const el = card(view, 'a [Conflict].md')!;
    const lines = Array.from(el.querySelectorAll('.agentm-diff-line')).map((l) => l.textContent);
    expect(lines).toEqual(['-<b>bold?</b>', '+<script>x()</script>', ' same']);
    expect(el.querySelector('script, b')).toBeNull();
    expect(el.querySelector('.agentm-diff-hunk')?.textContent).toBe('@@ -1,2 +1,2 @@');
    expect(htmlWritesSince(before)).toEqual([]);
    unloadPlugin(s.plugin);
  });

  it('shows the hashes the actions will hold to', async () => {
    const s = await startWithPlugin({ 'a.md': 'v1\n', 'a [Conflict].md': 'v2\n' });
    const view = await openConflicts(s);
    const hashes = card(view, 'a [Conflict].md')?.querySelector('.agentm-conflict-hashes')?.textContent;
    expect(hashes).toBe(` · original ${shortHash(contentHash('v1\n'))} · copy ${shortHash(contentHash('v2\n'))}`);
    unloadPlugin(s.plugin);
  });

  it('updates on vault events and shows a notice when a new copy arrives', async () => {
    const s = await startWithPlugin({ 'plan.md': 'x\n' });
    const view = await openConflicts(s);
    expect(view.contentEl.textContent).toContain('No conflict copies.');
    await writeFile(join(s.v.dir, 'plan.sync-conflict-20260101-101010-ABC.md'), 'y\n');
    await s.v.fake.vault.rescan(); // the app's file watcher fires `create`; the index rebuilds after its debounce
    await until(() => expect(card(view, 'plan.sync-conflict-20260101-101010-ABC.md')).not.toBeNull());
    expect(shownNotices().at(-1)).toBe(
      'AgentM: new conflict copy "plan.sync-conflict-20260101-101010-ABC.md". Open the conflicts view to resolve it.',
    );
    unloadPlugin(s.plugin);
  });

  it('announces copies already present once, when the layout is ready', async () => {
    const count = shownNotices().length;
    const s = await startWithPlugin({ 'a.md': '1', 'a [Conflict].md': '2', 'b.md': '1', 'Copy of b.md': '2' });
    expect(shownNotices().slice(count)).toEqual([
      'AgentM: 2 conflict copies need attention. Open the conflicts view to resolve them.',
    ]);
    unloadPlugin(s.plugin);
  });

  it('opens both files side by side', async () => {
    const s = await startWithPlugin({ 'a.md': 'one\n', 'a [Conflict].md': 'two\n' });
    const view = await openConflicts(s);
    button(card(view, 'a [Conflict].md')!, 'Open both').click();
    await until(() => {
      const opened: string[] = [];
      s.v.app.workspace.iterateAllLeaves((leaf) => {
        const file = (leaf.view as { file?: { path: string } }).file;
        if (file) opened.push(file.path);
      });
      expect(opened.sort()).toEqual(['a [Conflict].md', 'a.md']);
    });
    unloadPlugin(s.plugin);
  });

  it('lists Drive lost_and_found files read-only, and brings one into the vault as a conflict copy of its original', async () => {
    const s = await startWithPlugin({ 'Agent/_harness/PLAN.md': 'vault plan\n' });
    await mkdir(join(s.v.lostAndFound, 'dump'), { recursive: true });
    await writeFile(join(s.v.lostAndFound, 'dump', 'PLAN.md'), 'orphaned plan\n');
    await writeFile(join(s.v.lostAndFound, 'unknown.bin'), 'z');
    const view = await openConflicts(s);
    const lost = card(view, join(s.v.lostAndFound, 'dump', 'PLAN.md'))!;
    expect(lost.closest('.agentm-conflict-group')?.querySelector('h4')?.textContent).toBe('Agent/_harness/PLAN.md');
    expect(Array.from(lost.querySelectorAll('button')).map((b) => b.textContent)).toEqual([
      'Open original',
      'Bring into vault',
    ]);
    const orphan = card(view, join(s.v.lostAndFound, 'unknown.bin'))!;
    expect(orphan.closest('.agentm-conflict-group')?.querySelector('h4')?.textContent).toBe(
      'Google Drive lost and found',
    );
    expect(orphan.querySelectorAll('button')).toHaveLength(0);

    button(lost, 'Bring into vault').click();
    await view.actionSettled();
    await settle(s, view);
    const copies = s.plugin.conflicts!.entries().filter((e) => e.source === 'vault');
    expect(copies.map((e) => e.family)).toEqual(['agentm']);
    expect(await readFile(join(s.v.dir, copies[0]!.copyPath), 'utf8')).toBe('orphaned plan\n');
    expect(await readFile(join(s.v.lostAndFound, 'dump', 'PLAN.md'), 'utf8')).toBe('orphaned plan\n');
    unloadPlugin(s.plugin);
  });

  it('skips lost_and_found when the setting is off', async () => {
    const s = await startWithPlugin();
    await mkdir(s.v.lostAndFound, { recursive: true });
    await writeFile(join(s.v.lostAndFound, 'x.md'), 'x');
    s.plugin.settings.scanLostAndFound = false;
    await s.plugin.saveSettings();
    expect(s.plugin.conflicts!.entries()).toEqual([]);
    unloadPlugin(s.plugin);
  });
});

describe('unifiedDiff', () => {
  it.each([
    ['equal texts', 'a\n', 'a\n', []],
    ['a changed line with context', 'a\nb\nc\n', 'a\nB\nc\n', [' a', '-b', '+B', ' c']],
    ['CRLF kept apart from LF', 'a\r\n', 'a\n', ['-a\r', '+a']],
    ['a missing final newline', 'a\n', 'a', ['-a', '+a']],
  ])('%s', (_name, original, copy, expected) => {
    const lines = unifiedDiff(original, copy).flatMap((h) =>
      h.lines.map((l) => ({ context: ' ', removed: '-', added: '+' })[l.kind] + l.text),
    );
    expect(lines).toEqual(expected);
  });
});
