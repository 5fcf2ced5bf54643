import { join } from 'node:path';
import { MemoryIndex } from '@agentm/core/memory';
import { VaultBackend } from '@agentm/core/backends';
import { describe, expect, it } from 'vitest';
import { runAgentm } from '../../../test/helpers/cli.js';
import { unloadPlugin } from './fake-obsidian/testing.js';
import { startWithPlugin, type Started } from './helpers/plugin.js';

/**
 * What Obsidian writes is in an agent's next answer — `agentm recall` as a new process, no `agentm mcp`
 * running, its index built before — without a walk of the vault: the plugin's saves and the edits made in
 * Obsidian go into the store's change log, which the answer reads (issue 19 §4).
 */

const NOTE = (body: string) => `---\ntype: reference\nstatus: active\n---\n\n${body}\n`;

async function start(): Promise<Started> {
  return startWithPlugin(
    { 'Agent/memory/reference/parking.md': NOTE('# Parking\n\nThe car park opens at eight.') },
    {
      before: (v) =>
        v.writeConfig({
          'storage.backend': 'vault',
          'plugins.obsidian-vault.vault_path': v.dir,
          'plugins.obsidian-vault.memory_root': 'Agent',
          // No background walk: only the change log can bring the answer up to date.
          'memory.index.revalidate_after': '1h',
        }),
    },
  );
}

/** `agentm` as an agent runs it, with the plugin's HOME and cache (so the same config, lock and change log). */
const agentm = (s: Started, args: string[]) => runAgentm(args, { home: s.v.home, env: { XDG_CACHE_HOME: s.v.cache } });

async function recalled(s: Started, text: string): Promise<string[]> {
  const r = await agentm(s, ['recall', text, '--json', '--all-projects']);
  expect([0, 1], r.stderr).toContain(r.code);
  return r.code === 0 ? (JSON.parse(r.stdout) as { items: { id: string }[] }).items.map((i) => i.id) : [];
}

/** When the index's last full walk began (it must not move: the answers catch up from the change log). */
async function lastWalk(s: Started): Promise<number | undefined> {
  const index = await MemoryIndex.open({
    backend: new VaultBackend({ root: join(s.v.dir, 'Agent'), lockRoot: s.v.lockRoot, createRoot: false }),
    toDocument: 'notes',
    indexRoot: join(s.v.cache, 'agentm', 'index'),
    lockRoot: s.v.lockRoot,
  });
  return index.marks.walkedMs;
}

describe('the change log from Obsidian', { timeout: 120_000 }, () => {
  it('a note saved through the plugin, and an edit made in Obsidian, are in an agent’s next recall', async () => {
    const s = await start();
    expect((await agentm(s, ['reindex'])).code).toBe(0);
    const walked = await lastWalk(s);
    expect(await recalled(s, 'car park')).toEqual(['memory/reference/parking.md']);

    await s.plugin.services!.saveNote({
      kind: 'fix',
      slug: 'gate-code',
      tags: [],
      body: '# Gate code\n\nThe gate code is 4711.',
    });
    expect(await recalled(s, 'gate code')).toContain('memory/fix/gate-code.md');

    // Edited in Obsidian's editor: the app writes the file in place (no folder changes) and reports it.
    const file = s.v.app.vault.getFileByPath('Agent/memory/reference/parking.md')!;
    await s.v.app.vault.modify(file, NOTE('# Parking\n\nThe car park now opens at seven, said the porter.'));
    expect(await recalled(s, 'porter')).toEqual(['memory/reference/parking.md']);

    expect(await lastWalk(s)).toBe(walked);
    unloadPlugin(s.plugin);
  });
});
