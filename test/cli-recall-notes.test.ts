import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';

interface Item {
  id: string;
  recency: number;
}

describe('agentm recall of saved notes (black box)', { timeout: 60_000 }, () => {
  it('finds pick-stdlib.md by "stdlib", a word only its name holds, and ranks the note saved a minute ago first with recency ≥ 0.9', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const save = (slug: string) =>
      runAgentm(['save', 'decision', slug, '--group', 'desk/projects/agentm', '--tags', 'a,b', '--body-file', '-'], {
        home: w.home,
        stdin: 'Body line one\r\nline two\n',
      });
    expect((await save('pick-stdlib')).code).toBe(0);
    expect((await save('older-stdlib-choice')).code).toBe(0);
    // The other one was saved a month ago: its dates and its file's time say so.
    const older = join(w.memoryRoot, 'desk', 'projects', 'agentm', 'convention', 'older-stdlib-choice.md');
    const month = new Date(Date.now() - 30 * 86_400_000);
    const day = `${month.getFullYear()}-${String(month.getMonth() + 1).padStart(2, '0')}-${String(month.getDate()).padStart(2, '0')}`;
    await writeFile(older, (await readFile(older, 'utf8')).replace(/^(created|updated): .*$/gm, `$1: ${day}`));
    await utimes(older, month, month);
    const found = await runAgentm(['recall', 'stdlib', '--project', 'agentm', '--json'], { home: w.home });
    expect(found.code, found.stderr).toBe(0);
    const items = (JSON.parse(found.stdout) as { items: Item[] }).items;
    expect(items.map((i) => i.id)).toEqual([
      'desk/projects/agentm/convention/pick-stdlib.md',
      'desk/projects/agentm/convention/older-stdlib-choice.md',
    ]);
    expect(items[0]!.recency).toBeGreaterThanOrEqual(0.9);
    expect(items[1]!.recency).toBeLessThan(0.6);
    const plain = await runAgentm(['recall', 'stdlib', '--project', 'agentm'], { home: w.home });
    expect(plain.stdout).toContain('desk/projects/agentm/convention/pick-stdlib.md');
  });
});
