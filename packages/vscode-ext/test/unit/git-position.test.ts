import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitPosition } from '../../src/sources/git-position';

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const temp = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
};

/** A real repository with one commit holding `src/a.ts`. */
function repo(): { dir: string; git: (...args: string[]) => string } {
  const dir = temp('agentm-git-');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  git('init', '-q', '-b', 'main');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export {};\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
  return { dir, git };
}

describe("a selection's place in its git repository (what a saved note links to)", () => {
  it('is the repository-relative path and the commit checked out, from a loose ref and a packed one', async () => {
    const { dir, git } = repo();
    const head = git('rev-parse', 'HEAD');
    expect(await gitPosition(join(dir, 'src', 'a.ts'))).toEqual({ path: 'src/a.ts', commit: head });
    git('pack-refs', '--all', '--prune');
    expect(await gitPosition(join(dir, 'src', 'a.ts'))).toEqual({ path: 'src/a.ts', commit: head });
    git('checkout', '-q', '--detach');
    expect((await gitPosition(join(dir, 'src', 'a.ts')))?.commit).toBe(head);
  });

  it('follows a worktree to its commit', async () => {
    const { git } = repo();
    const other = join(temp('agentm-wt-'), 'wt');
    git('worktree', 'add', '-q', '-b', 'side', other);
    expect(await gitPosition(join(other, 'src', 'a.ts'))).toEqual({
      path: 'src/a.ts',
      commit: git('rev-parse', 'HEAD'),
    });
  });

  it('is undefined outside any repository', async () => {
    const dir = temp('agentm-nogit-');
    writeFileSync(join(dir, 'x.md'), 'x\n');
    expect(await gitPosition(join(dir, 'x.md'))).toBeUndefined();
  });
});
