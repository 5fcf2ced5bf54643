import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MarkdownView } from 'obsidian';
import { NoteExistsError, noteFingerprint, StorageRulesError } from '@agentm/core/memory';
import { serializeNote } from '@agentm/core';
import { describe, expect, it } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import type { Editor as FakeEditor } from './fake-obsidian/views.js';
import { nextModal, unloadPlugin } from './fake-obsidian/testing.js';
import { modal, startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

/** A fixed local time: the note's `created`/`updated` are the host clock's local date. */
const NOW = new Date(2026, 0, 15, 10, 30, 0);

const type = (el: HTMLInputElement, value: string) => {
  el.value = value;
  el.dispatchEvent(new Event('input'));
};

/** Opens `path`, selects its first `length` characters and runs the save command; resolves to the modal. */
async function saveSelection(s: Started, path: string, length: number): Promise<HTMLElement> {
  const leaf = s.v.app.workspace.getLeaf(true);
  await leaf.openFile(s.v.app.vault.getFileByPath(path)!);
  ((leaf.view as MarkdownView).editor as unknown as FakeEditor).selectOffsets(0, length);
  const opened = nextModal();
  expect(s.v.fake.commands.executeCommandById('agentm-vault:save-selection-as-memory')).toBe(true);
  return (await opened).modalEl;
}

describe('save selection as memory (core’s saveNote through the in-vault backend)', () => {
  it('writes agentm’s bytes into the active file’s project group, then opens the note', async () => {
    const s = await startWithPlugin(
      { 'desk/projects/agentm/notes/today.md': 'Prefer the standard library.\r\nIt ships.\nrest\n' },
      { host: { now: () => NOW } },
    );
    const dialog = await saveSelection(s, 'desk/projects/agentm/notes/today.md', 39);
    const input = (field: string) => dialog.querySelector(`[data-field="${field}"] input`) as HTMLInputElement;
    expect(input('group').value).toBe('desk/projects/agentm');
    type(input('kind'), 'decision'); // retired: core files it as a convention
    type(input('slug'), 'prefer-stdlib');
    type(input('tags'), 'go, build-tools');
    (Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Save') as HTMLButtonElement).click();
    await until(() => expect(modal()).toBeNull());

    const path = 'desk/projects/agentm/convention/prefer-stdlib.md';
    const body = 'Prefer the standard library.\r\nIt ships.';
    const written = await readFile(join(s.v.dir, path), 'utf8');
    expect(written).toBe(
      [
        '---',
        'type: convention',
        'status: active',
        'altitude: artifact',
        'created: 2026-01-15',
        'updated: 2026-01-15',
        'tags: [go, build-tools]',
        'group: desk/projects/agentm',
        'slug: prefer-stdlib',
        `fingerprint: ${noteFingerprint(body)}`,
        'always_load: false',
        '---',
        '',
        'Prefer the standard library.\r\nIt ships.',
        '',
      ].join('\n'),
    );
    const fields = {
      type: 'convention',
      status: 'active',
      altitude: 'artifact',
      created: '2026-01-15',
      updated: '2026-01-15',
      tags: ['go', 'build-tools'],
      group: 'desk/projects/agentm',
      slug: 'prefer-stdlib',
      fingerprint: noteFingerprint(body),
      always_load: false,
    };
    expect(written).toBe(serializeNote(fields, body));

    await s.v.fake.vault.rescan(); // Obsidian's file watcher reports the new file
    await until(() => expect(s.v.app.workspace.getActiveFile()?.path).toBe(path));
    unloadPlugin(s.plugin);
  });

  it('files into the memory space without a project, under the memory root agentm’s config names', async () => {
    const s = await startWithPlugin(
      { 'Agent/memory/fix/old.md': 'x', 'loose.md': 'Always pin the toolchain.\n' },
      {
        host: { now: () => NOW },
        before: (v) =>
          v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' }),
      },
    );
    await s.v.app.workspace.getLeaf(true).openFile(s.v.app.vault.getFileByPath('loose.md')!);
    expect(await s.plugin.services!.saveForm()).toMatchObject({ group: 'memory', project: undefined });
    const saved = await s.plugin.services!.saveNote({
      kind: 'workflow',
      slug: 'pin-toolchain',
      tags: [],
      body: 'Always pin the toolchain.',
    });
    expect(saved.path).toBe('Agent/memory/workflow/pin-toolchain.md');
    expect(await readFile(join(s.v.dir, saved.path), 'utf8')).toMatch(
      /^---\ntype: workflow\n[\s\S]*\ngroup: memory\nslug: pin-toolchain\n[\s\S]*---\n\nAlways pin the toolchain\.\n$/,
    );
    unloadPlugin(s.plugin);
  });

  it('files by the vault’s storage rules (beside the memory root, as agentm resolves them) and refuses a broken block', async () => {
    const rules = (kinds: string) =>
      [
        '# Storage rules',
        '',
        '```storage-rules',
        'memory_types: [preference, meeting-note]',
        `record_kinds: [${kinds}]`,
        'deprecations: {minutes: meeting-note}',
        '```',
        '',
      ].join('\n');
    const s = await startWithPlugin(
      { 'Agent/memory/fix/old.md': 'x', 'standards/storage-rules.md': rules('brief, ledger'), 'loose.md': 'x\n' },
      {
        host: { now: () => NOW },
        before: (v) =>
          v.writeConfig({ 'plugins.obsidian-vault.vault_path': v.dir, 'plugins.obsidian-vault.memory_root': 'Agent' }),
      },
    );
    const form = await s.plugin.services!.saveForm();
    expect(form.vocabulary).toMatchObject({ types: ['preference', 'meeting-note'], recordKinds: ['brief', 'ledger'] });
    const saved = await s.plugin.services!.saveNote({ kind: 'minutes', slug: 'standup', tags: [], body: 'Notes.' });
    expect(saved.path).toBe('Agent/memory/meeting-note/standup.md');
    await expect(
      s.plugin.services!.saveNote({ kind: 'research', slug: 'x', tags: [], body: 'Refused.' }),
    ).rejects.toThrow(/"research" is in neither register/);

    await mkdir(join(s.v.dir, 'Agent', 'standards'), { recursive: true });
    await writeFile(join(s.v.dir, 'Agent', 'standards', 'storage-rules.md'), rules('brief, [ledger'));
    const error = await s.plugin
      .services!.saveNote({ kind: 'brief', slug: 'y', tags: [], body: 'Refused.' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageRulesError);
    expect((error as Error).message).toContain(join(s.v.dir, 'Agent', 'standards', 'storage-rules.md'));
    expect(existsSync(join(s.v.dir, 'Agent', 'memory', 'brief'))).toBe(false);
    unloadPlugin(s.plugin);
  });

  it('refuses an existing slug with core’s reason and writes nothing', async () => {
    const s = await startWithPlugin({ 'memory/fix/flaky-test.md': 'the original\n', 'note.md': 'A newer fix\n' });
    await expect(
      s.plugin.services!.saveNote({ kind: 'fix', slug: 'flaky-test', tags: [], body: 'A newer fix' }),
    ).rejects.toBeInstanceOf(NoteExistsError);
    expect(await readFile(join(s.v.dir, 'memory/fix/flaky-test.md'), 'utf8')).toBe('the original\n');
    expect(await readdir(join(s.v.dir, 'memory/fix'))).toEqual(['flaky-test.md']);

    const dialog = await saveSelection(s, 'note.md', 11);
    type(dialog.querySelector('[data-field="kind"] input') as HTMLInputElement, 'fix');
    type(dialog.querySelector('[data-field="slug"] input') as HTMLInputElement, 'flaky-test');
    (Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Save') as HTMLButtonElement).click();
    await until(() =>
      expect(dialog.querySelector('[data-field="slug"] .setting-item-error')?.textContent).toBe(
        'entry already exists at memory/fix/flaky-test.md: agentm save never overwrites a note. Use evolve to supersede it (the old note is archived under memory/_archive/ and the new one records what it supersedes), or pick a different slug.',
      ),
    );
    expect(await readFile(join(s.v.dir, 'memory/fix/flaky-test.md'), 'utf8')).toBe('the original\n');
    expect(await readdir(join(s.v.dir, 'memory/fix'))).toEqual(['flaky-test.md']);
    unloadPlugin(s.plugin);
  });

  it('waits while a child process holds the agentm lock, shows it, and saves once it is released', async () => {
    const s = await startWithPlugin({}, { host: { now: () => NOW } });
    const holder = spawnFixture('lock-holder.mjs', [s.v.dir, s.v.lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);

    let settled = false;
    const saving = s.plugin
      .services!.saveNote({ kind: 'idea', slug: 'while-locked', tags: [], body: 'Saved after the agent.' })
      .finally(() => (settled = true));
    await until(() => expect(s.plugin.lockIndicator!.text).toBe('AgentM: waiting for an agent to finish writing…'));
    expect(settled).toBe(false);
    expect(existsSync(join(s.v.dir, 'memory/idea/while-locked.md'))).toBe(false);

    holder.child.kill('SIGTERM');
    await holder.exited;
    expect(await saving).toEqual({ path: 'memory/idea/while-locked.md' });
    expect(await readFile(join(s.v.dir, 'memory/idea/while-locked.md'), 'utf8')).toContain('\nslug: while-locked\n');
    await s.plugin.lockIndicator!.refresh();
    expect(s.plugin.lockIndicator!.text).toBe('');
    unloadPlugin(s.plugin);
  });
});
