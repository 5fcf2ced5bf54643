import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentmBounded } from './helpers/bounded-cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { tempDir } from './helpers/temp.js';

const note = (type: string, body: string) => `---\ntype: ${type}\nstatus: active\n---\n\n${body}\n`;

/** A vault (memory root `<vault>/Agent`) selected by config, a bound repo, and one plain note. */
async function world() {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await mkdir(join(w.memoryRoot, 'memory', 'fix'), { recursive: true });
  await writeFile(join(w.memoryRoot, 'memory', 'fix', 'hello.md'), note('fix', 'hello world from the vault'));
  const run = (args: string[]) => runAgentmBounded(args, { home: w.home, cwd: w.repo });
  return { ...w, run };
}

type Recalled = { items: { locator: string; snippet?: string }[] };

describe('symlink loops (issue 11, item 12)', () => {
  it('memory/x → . and memory/y → . neither hang reindex and recall nor duplicate a note', async () => {
    const w = await world();
    await symlink('.', join(w.memoryRoot, 'memory', 'x'));
    await symlink('.', join(w.memoryRoot, 'memory', 'y'));
    const reindex = await w.run(['reindex', '--full']);
    expect(reindex.timedOut, 'reindex hung').toBe(false);
    expect(reindex.code, reindex.stderr).toBe(0);
    const recall = await w.run(['recall', 'hello', '--all-projects', '--json']);
    expect(recall.timedOut, 'recall hung').toBe(false);
    expect(recall.code, recall.stderr).toBe(0);
    expect((JSON.parse(recall.stdout) as Recalled).items.map((i) => i.locator)).toEqual(['memory/fix/hello.md']);
    expect(reindex.stderr).toMatch(/memory\/x.*(cycle|already)/);
  }, 60_000);

  it("recall-here's fallback (no usable index) lists a note once despite a link cycle in the project", async () => {
    const w = await world();
    const project = join(w.memoryRoot, 'desk', 'projects', 'proj', 'fix');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'loop.md'), note('fix', 'the only copy'));
    await symlink('..', join(project, 'up'));
    // A cache "directory" that is a file: the index cannot be opened, so recall-here falls back.
    await writeFile(join(w.home, 'not-a-dir'), '');
    const here = await runAgentmBounded(['recall-here', '--cwd', w.repo], {
      home: w.home,
      cwd: w.repo,
      env: { XDG_CACHE_HOME: join(w.home, 'not-a-dir') },
    });
    expect(here.timedOut).toBe(false);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stderr).toMatch(/falling back|newest first/);
    expect(here.stdout.split('the only copy').length - 1, here.stdout).toBe(1);
  }, 60_000);

  it('a link to a folder inside the store is walked once, under its real path', async () => {
    const w = await world();
    await symlink(join(w.memoryRoot, 'memory', 'fix'), join(w.memoryRoot, 'memory', 'aaa-alias'));
    const recall = await w.run(['recall', 'hello', '--all-projects', '--json']);
    expect(recall.code, recall.stderr).toBe(0);
    expect((JSON.parse(recall.stdout) as Recalled).items.map((i) => i.locator)).toEqual(['memory/fix/hello.md']);
  }, 60_000);
});

describe('reads never leave the store through a link (issue 11, item 5)', () => {
  async function withSecrets() {
    const w = await world();
    const outside = await tempDir();
    await writeFile(join(outside, 'id_rsa'), 'SECRETKEYMATERIAL do not print\n');
    await mkdir(join(outside, 'notes'));
    await writeFile(join(outside, 'notes', 'leak.md'), note('fix', 'SECRETKEYMATERIAL in a linked folder'));
    await mkdir(join(w.memoryRoot, 'memory', '_always-load'), { recursive: true });
    await symlink(join(outside, 'id_rsa'), join(w.memoryRoot, 'memory', '_always-load', 'id.md'));
    await symlink(join(outside, 'notes'), join(w.memoryRoot, 'memory', 'linked'));
    // A link that stays inside the store is fine.
    await mkdir(join(w.memoryRoot, 'memory', 'reference'), { recursive: true });
    await symlink(
      join(w.memoryRoot, 'memory', 'fix', 'hello.md'),
      join(w.memoryRoot, 'memory', 'reference', 'same.md'),
    );
    return { ...w, outside };
  }

  it('recall-here neither prints nor injects a note linked to a file outside the store', async () => {
    const w = await withSecrets();
    const here = await w.run(['recall-here', '--cwd', w.repo]);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout).not.toContain('SECRETKEYMATERIAL');
    expect(here.stderr).toContain(join(w.memoryRoot, 'memory', '_always-load', 'id.md'));
  }, 60_000);

  it('reindex and recall never index a file or folder reached through a link out of the store', async () => {
    const w = await withSecrets();
    const reindex = await w.run(['reindex', '--full']);
    expect(reindex.code, reindex.stderr).toBe(0);
    const recall = await w.run(['recall', 'SECRETKEYMATERIAL', '--all-projects', '--json']);
    expect(recall.stdout + recall.stderr).not.toContain('do not print');
    expect(recall.code === 1 || (JSON.parse(recall.stdout) as Recalled).items.length === 0).toBe(true);
    const inside = await w.run(['recall', 'hello', '--all-projects', '--json']);
    expect((JSON.parse(inside.stdout) as Recalled).items.map((i) => i.locator).sort()).toEqual([
      'memory/fix/hello.md',
      'memory/reference/same.md',
    ]);
  }, 60_000);

  it('doctor reports the links that point outside the store', async () => {
    const w = await withSecrets();
    const doctor = await w.run(['doctor']);
    expect(doctor.stdout).toMatch(/links \[WARN\]/);
    expect(doctor.stdout).toContain(`memory/_always-load/id.md → ${join(w.outside, 'id_rsa')}`);
    expect(doctor.stdout).toContain(`memory/linked → ${join(w.outside, 'notes')}`);
    expect(doctor.stdout).not.toContain('memory/reference/same.md');
  }, 60_000);
});

describe('a file the store cannot name (issue 11, item 13)', () => {
  it('a backslash in one name is skipped with one warning naming it; recall, reindex, plans and the conflict scan go on', async () => {
    const w = await world();
    await writeFile(join(w.memoryRoot, 'memory', 'fix', 'odd\\name.md'), note('fix', 'hello from a backslash'));
    await writeFile(join(w.memoryRoot, 'memory', 'fix', 'hello (conflicted copy 2026-01-01).md'), note('fix', 'x'));
    await writeFile(join(w.harness, 'PLAN.md'), '- [ ] one\n');
    await writeFile(join(w.harness, 'PLAN-a\\b.md'), '- [ ] two\n');
    const reindex = await w.run(['reindex', '--full']);
    expect(reindex.code, reindex.stderr).toBe(0);
    const badNote = join(w.memoryRoot, 'memory', 'fix', 'odd\\name.md');
    expect(reindex.stderr.split(badNote).length - 1, reindex.stderr).toBe(1);
    expect(reindex.stdout).toContain(
      'not indexed (sync conflict copies): memory/fix/hello (conflicted copy 2026-01-01).md',
    );
    const recall = await w.run(['recall', 'hello', '--all-projects', '--json']);
    expect(recall.code, recall.stderr).toBe(0);
    expect((JSON.parse(recall.stdout) as Recalled).items.map((i) => i.locator)).toEqual(['memory/fix/hello.md']);
    const plans = await w.run(['plans', '--cwd', w.repo]);
    expect(plans.code, plans.stderr).toBe(0);
    expect(plans.stdout).toBe(`${join(w.harness, 'PLAN.md')}\n`);
    expect(plans.stderr).toContain(join(w.harness, 'PLAN-a\\b.md'));
  }, 60_000);
});
