import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Where a file is in its git repository: its path from the repository's root, and the commit checked out. */
export interface GitPosition {
  readonly path: string;
  readonly commit: string | undefined;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

const text = (path: string) =>
  readFile(path, 'utf8').then(
    (t) => t.trim(),
    () => undefined,
  );

/** The repository holding `dir`: its root and git directory (a `.git` folder, or a worktree's `gitdir:` file). */
async function findRepository(dir: string): Promise<{ root: string; gitDir: string } | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return { root: at, gitDir: dotGit };
    if (info?.isFile()) {
      const target = /^gitdir:\s*(.+)$/m.exec((await text(dotGit)) ?? '')?.[1];
      if (target) return { root: at, gitDir: resolve(at, target) };
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The commit `HEAD` names: detached, a loose ref, or a packed one (worktrees share the common directory). */
async function headCommit(gitDir: string): Promise<string | undefined> {
  const head = await text(join(gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (SHA.test(head)) return head;
  const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
  if (!ref) return undefined;
  const common = resolve(gitDir, (await text(join(gitDir, 'commondir'))) ?? '.');
  for (const dir of [gitDir, common]) {
    const loose = await text(join(dir, ...ref.split('/')));
    if (loose && SHA.test(loose)) return loose;
    const packed = (await text(join(dir, 'packed-refs')))?.split('\n').find((l) => l.endsWith(` ${ref}`));
    const sha = packed?.split(' ')[0];
    if (sha && SHA.test(sha)) return sha;
  }
  return undefined;
}

/**
 * The file's position in its git repository, read from the repository's own files (no `git` process
 * runs from an editor command): its path from the root, `/`-separated, and the commit checked out.
 * Undefined outside any repository.
 */
export async function gitPosition(file: string): Promise<GitPosition | undefined> {
  const real = await realpath(file).catch(() => file);
  const repo = await findRepository(dirname(real));
  if (!repo) return undefined;
  const path = relative(await realpath(repo.root).catch(() => repo.root), real);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return undefined;
  return { path: path.split(sep).join('/'), commit: await headCommit(repo.gitDir) };
}
