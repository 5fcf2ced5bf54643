import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

async function vault() {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  const put = async (key: string, text: string) => {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
  };
  await put(
    'memory/fix/lock-timeout.md',
    '---\ntype: fix\nstatus: active\n---\n\nLockTimeout: another writer holds the vault lock; wait and retry.\n',
  );
  await put(
    'memory/reference/old.md',
    '---\ntype: reference\nstatus: pruned\n---\n\nA pruned belief about the vault lock.\n',
  );
  await put(
    'desk/projects/agentm/convention/tests.md',
    '---\ntype: convention\nstatus: active\n---\n\nTests use vitest and real temp dirs.\n',
  );
  await put(
    'desk/projects/other/convention/tests.md',
    '---\ntype: convention\nstatus: active\n---\n\nOther project: tests use mocha.\n',
  );
  await put(
    'desk/projects/agentm/_harness/progress.md',
    '# Progress\n\n- 2026-01-05T10:00:00Z the vault lock timed out while syncing\n- 2026-01-05T10:02:00Z the vault lock timed out while syncing again\n',
  );
  const env = { MEMORY_VAULT_PATH: root };
  return { home, root, env, put };
}

describe('agentm recall / reindex / consolidate', () => {
  it('recall finds notes and episodes, scoped to a project, and exits 1 when nothing matches', async () => {
    const v = await vault();
    const all = await runAgentm(['recall', 'vault lock', '--json'], { home: v.home, env: v.env });
    expect(all.code).toBe(0);
    const result = JSON.parse(all.stdout) as {
      mode: string;
      items: { id: string; kind: string; similarity: number; recency: number; score: number }[];
    };
    expect(result.mode).toBe('lexical');
    expect(result.items.map((i) => i.kind).sort()).toEqual(['episode', 'episode', 'fix']);
    expect(result.items.every((i) => i.score >= 0 && i.similarity <= 1 && i.recency <= 1)).toBe(true);
    const scoped = await runAgentm(['recall', 'tests', '--project', 'agentm', '--k', '5'], {
      home: v.home,
      env: v.env,
    });
    expect(scoped.code).toBe(0);
    expect(scoped.stdout).toContain('desk/projects/agentm/convention/tests.md');
    expect(scoped.stdout).not.toContain('desk/projects/other/');
    const none = await runAgentm(['recall', 'zebra'], { home: v.home, env: v.env });
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toContain('no memory matches "zebra"');
    await v.put('memory/fix/new.md', '---\ntype: fix\n---\n\nA zebra crossing note.\n');
    const stale = await runAgentm(['recall', 'zebra', '--no-refresh'], { home: v.home, env: v.env });
    expect(stale.code).toBe(1);
    const fresh = await runAgentm(['recall', 'zebra'], { home: v.home, env: v.env });
    expect(fresh.stdout).toContain('memory/fix/new.md');
    const bad = await runAgentm(['recall', 'x', '--k', 'lots'], { home: v.home, env: v.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--k takes a positive whole number');
    for (const empty of ['', '   ']) {
      const refused = await runAgentm(['recall', empty], { home: v.home, env: v.env });
      expect(refused, `recall ${JSON.stringify(empty)}`).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr).toContain('recall needs text to look for');
      expect(refused.stderr).toContain('agentm recall-here'); // the fix: what gives memories without a query
    }
  });

  it('reindex keeps the index in the user cache dir, never in the vault; --full rebuilds', async () => {
    const v = await vault();
    const first = await runAgentm(['reindex'], { home: v.home, env: v.env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/index rebuilt \(index was missing\): \d+ documents/);
    expect(first.stdout).toContain(join(v.home, '.cache', 'agentm', 'index'));
    const again = await runAgentm(['reindex', '--json'], { home: v.home, env: v.env });
    expect(JSON.parse(again.stdout)).toMatchObject({ rebuilt: null, read: 0, unchanged: 5 });
    const full = await runAgentm(['reindex', '--full'], { home: v.home, env: v.env });
    expect(full.stdout).toContain('rebuilt (--full)');
    const walk = async (dir: string): Promise<string[]> =>
      (await readdir(dir, { withFileTypes: true }))
        .flatMap((e) => (e.isDirectory() ? [] : [join(dir, e.name)]))
        .concat(
          ...(await Promise.all(
            (await readdir(dir, { withFileTypes: true }))
              .filter((e) => e.isDirectory())
              .map((e) => walk(join(dir, e.name))),
          )),
        );
    expect((await walk(v.root)).every((f) => f.endsWith('.md'))).toBe(true);
  });

  it('consolidate reports, writes a belief note and the watermark, and a second run changes nothing', async () => {
    const v = await vault();
    const dry = await runAgentm(['consolidate', '--project', 'agentm', '--dry-run'], { home: v.home, env: v.env });
    expect(dry.stdout).toBe(
      'agentm (dry run): 2 new episode(s) in 1 cluster(s) → created 1, reinforced 0, decayed 0, pruned 0\n',
    );
    const run = await runAgentm(['consolidate', '--json'], { home: v.home, env: v.env });
    expect(run.code).toBe(0);
    const [report] = JSON.parse(run.stdout) as { project: string; created: { id: string }[] }[];
    expect(report!.project).toBe('agentm');
    const belief = await readFile(join(v.root, report!.created[0]!.id), 'utf8');
    expect(belief).toMatch(
      /^---\ntype: reference\nstatus: active\n[\s\S]*derived_from: \[desk\/projects\/agentm\/_harness\/progress\.md#[0-9a-f]{16}, [^\]]+\]\nconfidence: 0\.5\nreinforce_count: 1\nlast_reinforced: [^\n]+\ndecay_windows: 0\n---\n\n/,
    );
    const mark = await readFile(join(v.root, 'desk/projects/agentm/_harness/consolidation.json'), 'utf8');
    const second = await runAgentm(['consolidate', '--project', 'agentm'], { home: v.home, env: v.env });
    expect(second.stdout).toBe(
      'agentm: 0 new episode(s) in 0 cluster(s) → created 0, reinforced 0, decayed 0, pruned 0\n',
    );
    expect(await readFile(join(v.root, 'desk/projects/agentm/_harness/consolidation.json'), 'utf8')).toBe(mark);
    const found = await runAgentm(['recall', 'vault lock timed out', '--project', 'agentm', '--kinds', 'reference'], {
      home: v.home,
      env: v.env,
    });
    expect(found.stdout).toContain(report!.created[0]!.id);
  });

  it('refuses half-configured providers with the variable to set', async () => {
    const v = await vault();
    const r = await runAgentm(['recall', 'x'], {
      home: v.home,
      env: { ...v.env, AGENTM_EMBED_MODEL: 'nomic-embed-text' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENTM_EMBED_BASE_URL');
  });
});
