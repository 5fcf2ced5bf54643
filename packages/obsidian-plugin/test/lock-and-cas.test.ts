import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LockTimeout } from '@agentm/core/write-protocol';
import { contentHash } from '@agentm/core/write-protocol';
import { describe, expect, it } from 'vitest';
import { spawnFixture, spawnProcess } from '../../../test/helpers/processes.js';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { card, openConflicts, settle, startWithPlugin } from './helpers/plugin.js';
import { until } from './helpers/until.js';

/** A real Node process holding the agentm lock of `root` until it is signalled. */
async function holdLock(root: string, lockRoot: string) {
  const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '10000', 'forever']);
  await holder.waitForLine(/^held /);
  return holder;
}

describe('plugin writes and the agentm lock', () => {
  it('waits while another process holds the lock, shows it in the status bar, and lands after the release', async () => {
    const s = await startWithPlugin({ 'Agent/_harness/PLAN.md': 'v1\n' });
    const { v, plugin } = s;
    plugin.settings.memoryRoot = 'Agent';
    await plugin.saveSettings();
    const holder = await holdLock(join(v.dir, 'Agent'), v.lockRoot);

    await plugin.lockIndicator!.refresh();
    expect(plugin.lockIndicator!.text).toBe('AgentM: an agent is writing');

    let landed = false;
    const write = plugin.writeAgentFile('Agent/_harness/PLAN.md', 'v2\n', contentHash('v1\n')).then((outcome) => {
      landed = true;
      return outcome;
    });
    await until(() => expect(plugin.lockIndicator!.text).toBe('AgentM: waiting for an agent to finish writing…'));
    expect(landed).toBe(false);
    expect(await readFile(join(v.dir, 'Agent/_harness/PLAN.md'), 'utf8')).toBe('v1\n');

    holder.child.kill('SIGTERM');
    await holder.exited;
    expect(await write).toEqual({ kind: 'written', path: 'Agent/_harness/PLAN.md' });
    expect(await readFile(join(v.dir, 'Agent/_harness/PLAN.md'), 'utf8')).toBe('v2\n');
    await plugin.lockIndicator!.refresh();
    expect(plugin.lockIndicator!.text).toBe('');
    unloadPlugin(plugin);
  });

  it('gives up after the lock wait with LockTimeout and writes nothing', async () => {
    const { v, plugin } = await startWithPlugin({ 'a.md': 'v1\n' });
    plugin.settings.lockWaitSeconds = 1;
    await plugin.saveSettings();
    const holder = await holdLock(v.dir, v.lockRoot);
    await expect(plugin.writeAgentFile('a.md', 'v2\n', contentHash('v1\n'))).rejects.toBeInstanceOf(LockTimeout);
    expect(await readFile(join(v.dir, 'a.md'), 'utf8')).toBe('v1\n');
    holder.child.kill('SIGTERM');
    await holder.exited;
    unloadPlugin(plugin);
  });

  it('a foreign write between read and write keeps both: the foreign bytes stay, ours become a surfaced conflict copy', async () => {
    const s = await startWithPlugin({ 'Agent/_harness/progress.md': 'read by the plugin\n' });
    const { v, plugin } = s;
    const read = await v.app.vault.adapter.read('Agent/_harness/progress.md');
    const foreign = spawnProcess(process.execPath, [
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(join(v.dir, 'Agent/_harness/progress.md'))}, 'written by a sync client\\n')`,
    ]);
    expect((await foreign.exited).code).toBe(0);

    const outcome = await plugin.writeAgentFile('Agent/_harness/progress.md', `${read}our line\n`, contentHash(read));
    expect(outcome.kind).toBe('conflict-copy');
    const copyPath = outcome.kind === 'conflict-copy' ? outcome.copyPath : '';
    expect(copyPath).toMatch(/^Agent\/_harness\/progress \(agentm conflict test-box \d{14}\)\.md$/);
    expect(await readFile(join(v.dir, 'Agent/_harness/progress.md'), 'utf8')).toBe('written by a sync client\n');
    expect(await readFile(join(v.dir, copyPath), 'utf8')).toBe('read by the plugin\nour line\n');
    expect(shownNotices().at(-1)).toContain(`your version was kept as "${copyPath}"`);
    expect((await readdir(join(v.dir, 'Agent/_harness'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const view = await openConflicts(s);
    await settle(s, view);
    expect(card(view, copyPath)?.textContent).toContain('AgentM (a write that lost its compare-and-swap)');
    unloadPlugin(plugin);
  });

  it('a file open in an editor is written through the app, and a foreign edit still makes a conflict copy', async () => {
    const { v, plugin } = await startWithPlugin({ 'note.md': 'v1\n' });
    await v.app.workspace.getLeaf(true).openFile(v.app.vault.getFileByPath('note.md')!);
    const modified: string[] = [];
    v.app.vault.on('modify', (f) => modified.push(f.path));
    expect((await plugin.writeAgentFile('note.md', 'v2\n', contentHash('v1\n'))).kind).toBe('written');
    expect(modified).toEqual(['note.md']);
    await writeFile(join(v.dir, 'note.md'), 'edited elsewhere\n');
    const outcome = await plugin.writeAgentFile('note.md', 'v3\n', contentHash('v2\n'));
    expect(outcome.kind).toBe('conflict-copy');
    expect(await readFile(join(v.dir, 'note.md'), 'utf8')).toBe('edited elsewhere\n');
    unloadPlugin(plugin);
  });
});
