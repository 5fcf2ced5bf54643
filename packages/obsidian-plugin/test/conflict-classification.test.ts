import { describe, expect, it } from 'vitest';
import { findVaultConflicts } from '../src/conflicts/classify.js';
import { unloadPlugin } from './fake-obsidian/testing.js';
import { card, openConflicts, startWithPlugin } from './helpers/plugin.js';

/** Every pattern of DESIGN §5, each with the original beside it, in one project's `_harness` folder. */
const COPIES: ReadonlyArray<readonly [copy: string, original: string, family: string]> = [
  ['PLAN (agentm conflict laptop 20261125143005).md', 'PLAN.md', 'agentm'],
  ['PLAN.sync-conflict-20261125-143005-ABCDEFG.md', 'PLAN.md', 'syncthing'],
  ["PLAN (Alex's conflicted copy 2026-11-25).md", 'PLAN.md', 'conflicted-copy'],
  ['PLAN (conflicted copy 2026-11-25 143005).md', 'PLAN.md', 'conflicted-copy'],
  ['PLAN (Conflicted copy laptop 202611251430).md', 'PLAN.md', 'conflicted-copy'],
  ['PLAN [Conflict].md', 'PLAN.md', 'bracket-conflict'],
  ['Copy of PLAN.md', 'PLAN.md', 'copy-of'],
  ['PLAN.Conflict.md', 'PLAN.md', 'resilio'],
  ['PLAN.md.conflict1', 'PLAN.md', 'rclone'],
  ['PLAN (1).md', 'PLAN.md', 'numbered'],
  ['PLAN 2.md', 'PLAN.md', 'icloud'],
  ['PLAN-DESKTOP-4F2K9Q1.md', 'PLAN.md', 'onedrive'],
  ['progress-worker.sync-conflict-20260102-030405-Q7RZ2AB.md', 'progress-worker.md', 'syncthing'],
];

/** Names that look like copies but are not (the sibling rule, or no pattern at all). */
const LOOK_ALIKES = [
  'report (2026).md',
  'PLAN-foo.md',
  'progress-worker.md',
  'Chapter 1.md',
  'Chapter.md',
  'conflict-resolution.md',
  'notes 2.md',
  'notes-LAPTOP7.md',
];

describe('conflict copies in the view', () => {
  it('lists each pattern under its original, and none of the look-alikes', async () => {
    const dir = 'desk/projects/agentm/_harness';
    const files: Record<string, string> = { [`${dir}/PLAN.md`]: 'plan\n', [`${dir}/progress-worker.md`]: 'log\n' };
    for (const [copy] of COPIES) files[`${dir}/${copy}`] = `copy ${copy}\n`;
    for (const name of LOOK_ALIKES) files[`${dir}/${name}`] = `${name}\n`;
    const s = await startWithPlugin(files);
    const view = await openConflicts(s);

    const listed = Array.from(view.contentEl.querySelectorAll<HTMLElement>('.agentm-conflict')).map(
      (el) => el.dataset['copy'],
    );
    expect(listed.sort()).toEqual(COPIES.map(([copy]) => `${dir}/${copy}`).sort());
    for (const [copy, original, family] of COPIES) {
      const el = card(view, `${dir}/${copy}`)!;
      expect(el.textContent, copy).toContain(`· ${family}`);
      expect(el.closest('.agentm-conflict-group')?.querySelector('h4')?.textContent, copy).toBe(`${dir}/${original}`);
    }
    for (const name of LOOK_ALIKES) expect(card(view, `${dir}/${name}`), name).toBeNull();
    expect(view.contentEl.querySelector('.agentm-conflicts-header')?.textContent).toContain(
      `${COPIES.length} conflict copies`,
    );
    unloadPlugin(s.plugin);
  });

  it('believes an ambiguous name only while its original sits beside it', () => {
    expect(findVaultConflicts(['a/notes (1).md'])).toEqual([]);
    expect(findVaultConflicts(['a/notes (1).md', 'b/notes.md'])).toEqual([]);
    expect(findVaultConflicts(['a/notes (1).md', 'a/notes.md']).map((c) => c.originalPath)).toEqual(['a/notes.md']);
    expect(findVaultConflicts(['notes [Conflict].md'])).toEqual([
      {
        copyPath: 'notes [Conflict].md',
        originalPath: 'notes.md',
        originalExists: false,
        family: 'bracket-conflict',
        tool: 'Google Drive',
      },
    ]);
  });

  it('shows an unambiguous copy whose original is gone as "(missing)", without "I merged it by hand"', async () => {
    const s = await startWithPlugin({ 'gone (conflicted copy 2026-01-02).md': 'orphan\n' });
    const view = await openConflicts(s);
    const el = card(view, 'gone (conflicted copy 2026-01-02).md')!;
    expect(el.closest('.agentm-conflict-group')?.querySelector('h4')?.textContent).toBe('gone.md (missing)');
    expect(Array.from(el.querySelectorAll('button')).map((b) => b.textContent)).toEqual([
      'Open copy',
      'Keep original',
      'Keep this copy',
    ]);
    unloadPlugin(s.plugin);
  });
});
