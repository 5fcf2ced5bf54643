import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDirFor } from '@agentm/core/write-protocol';
import { describe, expect, it, vi } from 'vitest';
import { spawnFixture } from '../../../test/helpers/processes.js';
import { findVaultConflicts } from '../src/conflicts/classify.js';
import { liveCounts, unloadPlugin } from './fake-obsidian/testing.js';
import { startWithPlugin, type Started } from './helpers/plugin.js';
import { until } from './helpers/until.js';

/** How long a file event may take to arrive on a loaded machine. */

describe('the lock indicator follows the lock by file events', () => {
  it('shows an agent taking the lock and hides its release, with no polling and no refresh asked for', async () => {
    const intervals = liveCounts().intervals;
    const { v, plugin } = await startWithPlugin({ 'a.md': 'a' });
    const indicator = plugin.lockIndicator!;
    expect(indicator.following.by).toBe('events');
    expect(liveCounts().intervals).toBe(intervals);
    const holder = spawnFixture('lock-holder.mjs', [v.dir, v.lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    await until(() => expect(indicator.text).toBe('AgentM: an agent is writing'));
    holder.child.kill('SIGTERM');
    await holder.exited;
    await until(() => expect(indicator.text).toBe(''));
    unloadPlugin(plugin);
  });

  it('hides a lock left by a holder that died, once it turns stale (no event comes for that)', async () => {
    const { v, plugin } = await startWithPlugin({ 'a.md': 'a' });
    const indicator = plugin.lockIndicator!;
    const lockDir = lockDirFor(v.dir, v.lockRoot);
    await mkdir(lockDir);
    const lastHeartbeat = new Date(Date.now() - 8_000); // agentm's stale window is 10 s
    await utimes(lockDir, lastHeartbeat, lastHeartbeat);
    await until(() => expect(indicator.text).toBe('AgentM: an agent is writing'));
    await until(() => expect(indicator.text).toBe(''));
    unloadPlugin(plugin);
  });

  it('follows the new lock when the memory root changes, and stops following at unload', async () => {
    const { v, plugin } = await startWithPlugin({ 'Agent/a.md': 'a' });
    plugin.settings.memoryRoot = 'Agent';
    await plugin.saveSettings();
    const holder = spawnFixture('lock-holder.mjs', [join(v.dir, 'Agent'), v.lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    await until(() => expect(plugin.lockIndicator!.text).toBe('AgentM: an agent is writing'));
    holder.child.kill('SIGTERM');
    await holder.exited;
    unloadPlugin(plugin);
    expect(plugin.lockIndicator!.following.by).toBe('nothing');
  });

  it('polls instead where the lock folder cannot be watched', async () => {
    const { v, plugin } = await startWithPlugin({}, { before: (v) => v.put({ 'not-a-folder': 'x' }) });
    plugin.settings.memoryRoot = 'Agent';
    // A lock root under a file cannot be created, let alone watched.
    Object.assign(plugin.host, { lockRoot: join(v.dir, 'not-a-folder', 'locks') });
    await plugin.saveSettings();
    expect(plugin.lockIndicator!.following.by).toBe('polling');
    unloadPlugin(plugin);
    expect(plugin.lockIndicator!.following.by).toBe('nothing');
  });
});

/** The conflict copies a full scan of the vault finds now (what the index must hold after any update). */
function fullScan(s: Started): string[] {
  return findVaultConflicts(s.v.app.vault.getFiles().map((f) => f.path))
    .map((c) => c.copyPath)
    .sort();
}

/** The watcher reports disk changes, then the index's debounced update lands. */
async function watcherRuns(s: Started): Promise<void> {
  await s.v.fake.vault.rescan();
  await until(() => expect(copies(s)).toEqual(fullScan(s)));
}

function copies(s: Started): string[] {
  return (s.plugin.conflicts?.entries() ?? []).map((e) => e.copyPath).sort();
}

describe('the conflict index updates where the vault changed', () => {
  it('a write re-reads nothing; a new file updates the list without reading the whole vault', async () => {
    const files: Record<string, string> = { 'PLAN.md': 'x' };
    for (let i = 0; i < 40; i++) files[`notes/n${i}.md`] = `note ${i}`;
    const s = await startWithPlugin(files);
    const whole = vi.spyOn(s.v.app.vault, 'getFiles');
    let updates = 0;
    s.plugin.conflicts!.on('changed', () => updates++);
    await writeFile(join(s.v.dir, 'notes/n1.md'), 'edited by an agent');
    await writeFile(join(s.v.dir, 'PLAN.md'), 'edited by an agent');
    await s.v.fake.vault.rescan(); // two `modify` events
    await new Promise((resolve) => setTimeout(resolve, 50)); // several debounce windows
    expect(updates).toBe(0);
    await writeFile(join(s.v.dir, 'notes/n1 (conflicted copy 2026-01-02).md'), 'theirs');
    await s.v.fake.vault.rescan();
    await until(() => expect(updates).toBe(1));
    expect(whole).not.toHaveBeenCalled();
    expect(copies(s)).toEqual(['notes/n1 (conflicted copy 2026-01-02).md']);
    unloadPlugin(s.plugin);
  });

  it('after creates, deletes and renames of files and folders it holds what a full scan finds', async () => {
    const s = await startWithPlugin({ 'a/PLAN.md': '1', 'a/deep/b.md': '1', 'c.md': '1' });
    const put = (path: string) => writeFile(join(s.v.dir, path), 'x');
    // An ambiguous name (` (1)`) is a copy only beside its original.
    await put('a/PLAN (1).md');
    await put('a/deep/b.sync-conflict-20260101-101010-ABC.md');
    await put('report (1).md');
    await watcherRuns(s);
    expect(copies(s)).toEqual(['a/PLAN (1).md', 'a/deep/b.sync-conflict-20260101-101010-ABC.md']);
    await put('report.md'); // its original arrives: now the ` (1)` file is a copy
    await watcherRuns(s);
    expect(copies(s)).toContain('report (1).md');
    await rm(join(s.v.dir, 'a/PLAN.md')); // the original goes: the ambiguous copy is no copy any more
    await watcherRuns(s);
    expect(copies(s)).not.toContain('a/PLAN (1).md');
    const deep = s.v.app.vault.getFolderByPath('a/deep')!;
    await s.v.app.vault.rename(deep, 'moved'); // a folder renamed through Obsidian
    await watcherRuns(s);
    expect(copies(s)).toContain('moved/b.sync-conflict-20260101-101010-ABC.md');
    await rename(join(s.v.dir, 'moved'), join(s.v.dir, 'elsewhere')); // …and on disk (delete + create)
    await watcherRuns(s);
    await rm(join(s.v.dir, 'elsewhere'), { recursive: true });
    await watcherRuns(s);
    expect(copies(s)).toEqual(['report (1).md']);
    unloadPlugin(s.plugin);
  });
});
