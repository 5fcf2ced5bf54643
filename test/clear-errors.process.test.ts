import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { spawnProcess } from './helpers/processes.js';
import { AGENTM_BIN } from './helpers/cli.js';

async function world() {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  const run = (args: string[], stdin?: string) =>
    runAgentm(args, { home: w.home, cwd: w.repo, ...(stdin !== undefined ? { stdin } : {}) });
  return { ...w, run };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('clear errors (issue 11, item 16)', () => {
  it('a vault that disappears during a run is reported as gone, and nothing is re-created where it was', async () => {
    const w = await world();
    const plan = join(w.harness, 'PLAN.md');
    await writeFile(plan, `- [ ] wait [id:: s1] [cmd:: ${process.execPath} -e "setTimeout(() => {}, 3000)"]\n`);
    const run = spawnProcess(
      AGENTM_BIN,
      ['run', '--yes'],
      {
        HOME: w.home,
        XDG_CACHE_HOME: join(w.home, '.cache'),
        AGENTM_INSTALL_PREFIX: join(w.home, '.claude'),
      },
      { cwd: w.repo },
    );
    await waitFor(async () => (await readFile(plan, 'utf8')).includes('[/]'), 'the step to start');
    await rename(w.vault, `${w.vault}.unmounted`); // the drive goes away
    const done = await run.exited;
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/is gone/);
    expect(done.stderr).toContain(w.memoryRoot);
    expect(done.stderr).not.toMatch(/no plan/);
    expect(existsSync(w.vault), 'the vault path was re-created').toBe(false);
  }, 60_000);

  it('control characters in file names never reach the terminal', async () => {
    const w = await world();
    const evil = 'memory/fix/\x1b]0;pwned\x07\x1b[2Jred.md';
    await mkdir(join(w.memoryRoot, 'memory', 'fix'), { recursive: true });
    await writeFile(join(w.memoryRoot, evil), '---\ntype: fix\nstatus: active\n---\n\nhello terminal\n');
    await writeFile(join(w.memoryRoot, 'memory', 'fix', 'odd\\\x1b[31m.md'), 'x');
    const recall = await w.run(['recall', 'hello', '--all-projects']);
    expect(recall.code, recall.stderr).toBe(0);
    const output = recall.stdout + recall.stderr;
    expect(output).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(recall.stdout).toContain('memory/fix/\\x1b]0;pwned\\x07\\x1b[2Jred.md');
    expect(recall.stderr).toContain('odd\\\\x1b[31m.md');
  }, 60_000);

  it('repos register refuses a slug that is not one safe segment', async () => {
    const w = await world();
    for (const slug of ['..', '.', 'a/b', '/etc', 'a\\b']) {
      const r = await w.run(['repos', 'register', slug, '--root', w.repo]);
      expect(r.code, `${slug}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/one safe (path )?segment|single/);
    }
    expect(await readFile(join(w.memoryRoot, '_meta', 'repos.json'), 'utf8')).toBe(
      '{\n  "version": 1,\n  "repos": []\n}\n',
    );
    expect((await w.run(['repos', 'register', 'fine-slug', '--root', w.repo])).code).toBe(0);
  }, 60_000);

  it('offer-save-here proposes only slugs that save accepts', async () => {
    const w = await world();
    const offered = await w.run([
      'offer-save-here',
      '--kind',
      'fix',
      '--slug',
      'Use Tabs, not Spaces!',
      '--cwd',
      w.repo,
    ]);
    expect(offered.code, offered.stderr).toBe(0);
    const [candidate] = JSON.parse(offered.stdout) as Array<{ slug: string }>;
    expect(candidate!.slug).toBe('use-tabs-not-spaces');
    const saved = await w.run(['save', 'fix', candidate!.slug, '--body-file', '-'], 'tabs\n');
    expect(saved.code, saved.stderr).toBe(0);
    const nothing = await w.run(['offer-save-here', '--kind', 'fix', '--slug', '!!!', '--cwd', w.repo]);
    expect([nothing.code, nothing.stdout]).toEqual([0, '[]\n']);
  }, 60_000);

  it('write-state refuses a name that listings would hide as a temp file', async () => {
    const w = await world();
    for (const name of ['.PLAN.md.123.0123456789abcdef.tmp', 'PLAN.md.123.0123456789abcdef0123456789abcdef.tmp']) {
      const r = await w.run(['write-state', name, '--cwd', w.repo, '--content-file', '-'], '- [ ] x\n');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/temp/);
      expect(existsSync(join(w.harness, name))).toBe(false);
    }
  }, 60_000);
});
