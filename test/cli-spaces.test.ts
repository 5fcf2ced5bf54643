import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';

/** A memory space and a projects space other than the built-in `memory` and `desk/projects`. */
const SPACES = { memory: 'knowledge/notes', projects: 'work' };

describe('a vault whose config sets spaces (issue 12 acceptance, CLI)', () => {
  it('recall and recall-here find a note that lives only under the configured memory space', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ ...vaultConfig(w), 'plugins.obsidian-vault.spaces': SPACES });
    const note = join(w.memoryRoot, 'knowledge', 'notes', 'fix', 'flaky-watcher.md');
    await mkdir(join(note, '..'), { recursive: true });
    await writeFile(
      note,
      '---\ntype: fix\nstatus: active\ncreated: 2026-02-01\nupdated: 2026-02-01\ntags: [watcher]\n---\n\n# Debounce the watcher\n\nWatchers fire twice on rename.\n',
    );
    await mkdir(join(w.memoryRoot, 'work', 'proj'), { recursive: true });

    const recall = await runAgentm(['recall', 'watchers rename', '--json'], { home: w.home, cwd: w.repo });
    expect(recall.stderr).toBe('');
    expect(recall.code).toBe(0);
    const items = (JSON.parse(recall.stdout) as { items: { locator: string }[] }).items;
    expect(items.map((i) => i.locator)).toEqual(['knowledge/notes/fix/flaky-watcher.md']);

    const here = await runAgentm(['recall-here', '--query', 'watchers rename'], { home: w.home, cwd: w.repo });
    expect(here.code).toBe(0);
    expect(here.stdout).toContain('Watchers fire twice on rename.');
  });
});
