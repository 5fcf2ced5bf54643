import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHash } from '@agentm/core/write-protocol';
import { describe, expect, it } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import { CopyStillChangingError } from '../src/conflicts/errors.js';
import type { ConflictsView } from '../src/conflicts/conflicts-view.js';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { button, card, modal, openConflicts, settle, startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

const H = 'desk/projects/agentm/_harness';
const PLAN = `${H}/PLAN-api.md`;
const COPY = `${H}/PLAN-api (conflicted copy 2026-11-25).md`;
const LOG = `${H}/progress-api.md`;

async function harnessConflict(): Promise<Started & { view: ConflictsView }> {
  const s = await startWithPlugin({
    [PLAN]: '- [ ] original step\n',
    [COPY]: '- [x] step done on the laptop\n',
    [LOG]: '- started\n',
  });
  return { ...s, view: await openConflicts(s) };
}

/** Clicks an action on a copy's card, answers the confirm modal, and waits for the action to finish. */
async function act(
  view: ConflictsView,
  copyPath: string,
  label: string,
  answer: 'confirm' | 'cancel' = 'confirm',
): Promise<void> {
  button(card(view, copyPath)!, label).click();
  const dialog = modal();
  expect(dialog, 'a confirm modal asks first').not.toBeNull();
  const buttons = Array.from(dialog!.querySelectorAll('button'));
  (answer === 'confirm'
    ? buttons.find((b) => b.hasClass('mod-warning'))
    : buttons.find((b) => b.textContent === 'Cancel'))!.click();
  await view.actionSettled();
  await view.rendered();
}

const disk = (s: Started, path: string) => readFile(join(s.v.dir, path), 'utf8');
const exists = (s: Started, path: string) => s.v.app.vault.adapter.exists(path);

describe('resolve actions', () => {
  it('"Keep original" trashes the copy, leaves the original, and records it in the plan’s progress log', async () => {
    const s = await harnessConflict();
    await act(s.view, COPY, 'Keep original');
    expect(await exists(s, COPY)).toBe(false);
    expect(await disk(s, '.trash/PLAN-api (conflicted copy 2026-11-25).md')).toBe('- [x] step done on the laptop\n');
    expect(await disk(s, PLAN)).toBe('- [ ] original step\n');
    expect(await disk(s, LOG)).toMatch(
      /^- started\n- \d{4}-\d\d-\d\dT[\d:.]+Z conflict resolved in Obsidian \(agentm-vault\): kept the original for PLAN-api\.md; removed the copy "PLAN-api \(conflicted copy 2026-11-25\)\.md"\n$/,
    );
    expect(shownNotices().at(-1)).toBe(`AgentM: kept the original for "${PLAN}". Recorded in progress-api.md.`);
    expect(card(s.view, COPY)).toBeNull();
    unloadPlugin(s.plugin);
  });

  it('"Keep this copy" replaces the original with the copy’s bytes, trashes the copy and records it', async () => {
    const s = await harnessConflict();
    await act(s.view, COPY, 'Keep this copy');
    expect(await disk(s, PLAN)).toBe('- [x] step done on the laptop\n');
    expect(await exists(s, COPY)).toBe(false);
    expect(await disk(s, LOG)).toContain('kept the copy for PLAN-api.md');
    unloadPlugin(s.plugin);
  });

  it('"Keep this copy" refuses when the original changed after the diff was shown, and changes nothing', async () => {
    const s = await harnessConflict();
    await writeFile(join(s.v.dir, PLAN), '- [ ] edited meanwhile\n');
    await act(s.view, COPY, 'Keep this copy');
    expect(shownNotices().at(-1)).toMatch(/changed since the diff was shown/);
    expect(await disk(s, PLAN)).toBe('- [ ] edited meanwhile\n');
    expect(await exists(s, COPY)).toBe(true);
    expect(await disk(s, LOG)).toBe('- started\n');
    unloadPlugin(s.plugin);
  });

  it('"I merged it by hand" refuses while the original is unchanged, and removes the copy once it changed', async () => {
    const s = await harnessConflict();
    await act(s.view, COPY, 'I merged it by hand');
    expect(shownNotices().at(-1)).toMatch(/has not changed since .* was found/);
    expect(await exists(s, COPY)).toBe(true);
    await writeFile(join(s.v.dir, PLAN), '- [x] original step, merged\n');
    await settle(s, s.view);
    await act(s.view, COPY, 'I merged it by hand');
    expect(await exists(s, COPY)).toBe(false);
    expect(await disk(s, PLAN)).toBe('- [x] original step, merged\n');
    expect(await disk(s, LOG)).toContain('merged by hand for PLAN-api.md');
    unloadPlugin(s.plugin);
  });

  it('refuses when the copy changed since it was shown (a sync tool still writing it)', async () => {
    const s = await harnessConflict();
    await writeFile(join(s.v.dir, COPY), '- [x] step done on the laptop\n- [ ] more arriving');
    await act(s.view, COPY, 'Keep this copy');
    expect(shownNotices().at(-1)).toMatch(/changed since you reviewed it/);
    expect(await disk(s, PLAN)).toBe('- [ ] original step\n');
    unloadPlugin(s.plugin);
  });

  it('refuses a copy modified within the settle window, and accepts it once it has been quiet', async () => {
    const s = await startWithPlugin({ 'a.md': 'a\n', 'a [Conflict].md': 'b\n' }, { host: { settleMs: 60_000 } });
    const entry = s.plugin.conflicts!.get('a [Conflict].md')!;
    const shown = { copyHash: contentHash('b\n'), originalHash: contentHash('a\n') };
    await expect(s.plugin.context!.resolver.keepOriginal(entry, shown)).rejects.toBeInstanceOf(CopyStillChangingError);
    await s.v.age('a [Conflict].md', 120);
    await expect(s.plugin.context!.resolver.keepOriginal(entry, shown)).resolves.toMatchObject({
      removed: 'a [Conflict].md',
      logged: undefined,
    });
    unloadPlugin(s.plugin);
  });

  it('does nothing when the confirm modal is cancelled', async () => {
    const s = await harnessConflict();
    await act(s.view, COPY, 'Keep this copy', 'cancel');
    expect(await exists(s, COPY)).toBe(true);
    expect(await disk(s, PLAN)).toBe('- [ ] original step\n');
    expect(modal()).toBeNull();
    unloadPlugin(s.plugin);
  });

  it('records nothing for files that are not harness state', async () => {
    const s = await startWithPlugin({ 'notes/idea.md': 'x\n', 'notes/idea [Conflict].md': 'y\n' });
    const view = await openConflicts(s);
    await act(view, 'notes/idea [Conflict].md', 'Keep this copy');
    expect(await disk(s, 'notes/idea.md')).toBe('y\n');
    expect(shownNotices().at(-1)).toBe('AgentM: kept the copy for "notes/idea.md".');
    unloadPlugin(s.plugin);
  });

  it.each([['Keep original'], ['Keep this copy'], ['I merged it by hand']])(
    '"%s" runs under the agentm lock: it waits for a holder process',
    async (label) => {
      const s = await harnessConflict();
      if (label === 'I merged it by hand') {
        await writeFile(join(s.v.dir, PLAN), '- [x] merged\n');
        await settle(s, s.view);
      }
      const holder = spawnFixture('lock-holder.mjs', [s.v.dir, s.v.lockRoot, '10000', 'forever']);
      await holder.waitForLine(/^held /);
      button(card(s.view, COPY)!, label).click();
      Array.from(modal()!.querySelectorAll('button'))
        .find((b) => b.hasClass('mod-warning'))!
        .click();
      await until(() => expect(s.plugin.lockIndicator!.text).toBe('AgentM: waiting for an agent to finish writing…'));
      expect(await exists(s, COPY)).toBe(true);
      expect(await disk(s, LOG)).toBe('- started\n');
      holder.child.kill('SIGTERM');
      await holder.exited;
      await s.view.actionSettled();
      expect(await exists(s, COPY)).toBe(false);
      expect(await disk(s, LOG)).toContain('conflict resolved in Obsidian');
      unloadPlugin(s.plugin);
    },
  );
});
