import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeSegment } from '../../src/routing/slug.js';
import { ProjectSlugError } from '../../src/routing/errors.js';
import { readProjectSlug, slugFromGithubRepo, slugFromRemoteUrl } from '../../src/routing/slug.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const noGit = async () => undefined;

async function repoWith(projectJson?: unknown): Promise<string> {
  const root = await tempDir();
  if (projectJson !== undefined) {
    await mkdir(join(root, '.harness'));
    await writeFile(
      join(root, '.harness', 'project.json'),
      typeof projectJson === 'string' ? projectJson : JSON.stringify(projectJson),
    );
  }
  return root;
}

describe('slug from a git remote URL', () => {
  it.each([
    ['https://github.com/owner/agentm.git', 'agentm'],
    ['https://github.com/owner/agentm/', 'agentm'],
    ['https://github.com/owner/agentm.git/', 'agentm'],
    ['ssh://git@github.com:22/owner/agentm.git', 'agentm'],
    ['git@github.com:owner/agentm.git', 'agentm'],
    ['git@github.com:agentm', 'agentm'],
    ['file:///srv/repos/agentm.git', 'agentm'],
    ['/srv/repos/agentm', 'agentm'],
    ['C:\\repos\\agentm.git', 'agentm'],
    ['  https://host/a/My.Repo  ', 'My.Repo'],
    ['https://host/', 'host'],
    ['', undefined],
  ])('%j → %j', (url, slug) => {
    expect(slugFromRemoteUrl(url)).toBe(slug);
  });

  it('github.repo takes the text after the last / and drops .git', () => {
    expect(slugFromGithubRepo('owner/agentm.git')).toBe('agentm');
    expect(slugFromGithubRepo('agentm')).toBe('agentm');
    expect(slugFromGithubRepo('owner/')).toBeUndefined();
  });

  it('never yields a slug with a separator (property)', () => {
    fc.assert(
      fc.property(fc.string(), (url) => {
        const slug = slugFromRemoteUrl(url);
        return slug === undefined || !/[/\\:]/.test(slug);
      }),
    );
  });
});

describe('readProjectSlug', () => {
  it('prefers vault_project, then github.repo, then the origin remote', async () => {
    const remote = async () => 'git@github.com:o/from-git.git';
    expect(
      await readProjectSlug(await repoWith({ vault_project: ' mine ', github: { repo: 'o/gh' } }), {
        gitRemote: remote,
      }),
    ).toEqual({
      slug: 'mine',
      source: '.harness/project.json vault_project',
    });
    expect(
      (
        await readProjectSlug(await repoWith({ vault_project: '', github: { repo: 'o/gh.git' } }), {
          gitRemote: remote,
        })
      )?.slug,
    ).toBe('gh');
    expect((await readProjectSlug(await repoWith({ github: {} }), { gitRemote: remote }))?.slug).toBe('from-git');
    expect((await readProjectSlug(await repoWith('{not json'), { gitRemote: remote }))?.slug).toBe('from-git');
    expect(await readProjectSlug(await repoWith(), { gitRemote: noGit })).toBeUndefined();
  });

  it.each([['a/b'], ['..'], ['.'], ['x\\y']])(
    'rejects the unsafe vault_project %j, naming project.json',
    async (slug) => {
      const error = await readProjectSlug(await repoWith({ vault_project: slug }), { gitRemote: noGit }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProjectSlugError);
      expect((error as Error).message).toContain('.harness/project.json');
    },
  );

  it('rejects a remote whose last segment is ..', async () => {
    await expect(
      readProjectSlug(await repoWith(), { gitRemote: async () => 'https://host/x/..' }),
    ).rejects.toBeInstanceOf(ProjectSlugError);
  });

  it('reads the origin of a real git repo', async () => {
    const root = await repoWith();
    execFileSync('git', ['init', '-q', root]);
    execFileSync('git', ['-C', root, 'remote', 'add', 'origin', 'https://example.com/team/real-repo.git/']);
    expect(await readProjectSlug(root, { env: { PATH: process.env['PATH'], HOME: root } })).toEqual({
      slug: 'real-repo',
      source: 'git remote origin https://example.com/team/real-repo.git/',
    });
    const bare = await repoWith();
    execFileSync('git', ['init', '-q', bare]);
    expect(await readProjectSlug(bare, { env: { PATH: process.env['PATH'], HOME: bare } })).toBeUndefined();
  });

  it('isSafeSegment', () => {
    expect(['a', 'A.b-c', '...', ' x'].every(isSafeSegment)).toBe(true);
    expect(['', '.', '..', 'a/b', 'a\\b', 'a\0b'].some(isSafeSegment)).toBe(false);
  });
});
