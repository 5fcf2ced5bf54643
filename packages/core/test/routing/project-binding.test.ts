import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindProject } from '../../src/routing/project-binding.js';
import { ProjectBindingError, ProjectSlugError } from '../../src/routing/errors.js';
import { resolveProject } from '../../src/routing/resolve-project.js';
import { readProjectSlug } from '../../src/routing/slug.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const noGit = async () => undefined;

async function repoWith(content?: string): Promise<string> {
  const root = await tempDir();
  if (content !== undefined) {
    await mkdir(join(root, '.harness'));
    await writeFile(join(root, '.harness', 'project.json'), content);
  }
  return root;
}

const projectJson = (root: string) => readFile(join(root, '.harness', 'project.json'), 'utf8');

describe('binding a folder to a vault project', () => {
  it('creates .harness/project.json in agentm format, and slug resolution then reads it', async () => {
    const root = await repoWith();
    const result = await bindProject(root, ' my-repo ');
    expect(result).toEqual({ outcome: 'created', file: join(root, '.harness', 'project.json'), slug: 'my-repo' });
    expect(await projectJson(root)).toBe('{\n  "vault_project": "my-repo"\n}\n');
    expect(await readProjectSlug(root, { gitRemote: noGit })).toEqual({
      slug: 'my-repo',
      source: '.harness/project.json vault_project',
    });
    expect((await readdir(join(root, '.harness'))).sort()).toEqual(['project.json']); // no temp left behind
  });

  it('adds the key to an existing object and keeps every other key in order', async () => {
    const root = await repoWith(
      '{"github": {"repo": "owner/old-name"}, "env": {"A": "é"}, "type": "harness", "vault_project": ""}',
    );
    expect((await bindProject(root, 'new-name')).outcome).toBe('added');
    const written = JSON.parse(await projectJson(root));
    expect(Object.keys(written)).toEqual(['github', 'env', 'type', 'vault_project']);
    expect(written).toEqual({
      github: { repo: 'owner/old-name' },
      env: { A: 'é' },
      type: 'harness',
      vault_project: 'new-name',
    });
    expect(await projectJson(root)).toContain('"A": "\\u00e9"'); // Python's json.dumps escapes non-ASCII
  });

  it('leaves the same binding untouched, byte for byte', async () => {
    const original = '{"vault_project":"same",  "x": 1}';
    const root = await repoWith(original);
    expect((await bindProject(root, 'same')).outcome).toBe('unchanged');
    expect(await projectJson(root)).toBe(original);
  });

  it('refuses a folder bound to another project, naming it and the fix, and writes nothing', async () => {
    const original = '{"vault_project": "theirs", "github": {"repo": "o/r"}}\n';
    const root = await repoWith(original);
    const attempt = bindProject(root, 'mine');
    await expect(attempt).rejects.toBeInstanceOf(ProjectBindingError);
    await expect(attempt).rejects.toThrow(
      /already binds this folder to project "theirs".*edit "vault_project" there by hand/,
    );
    expect(await projectJson(root)).toBe(original);
  });

  it.each([
    ['malformed JSON', '{"vault_project": '],
    ['an array', '["a"]'],
    ['a string', '"x"'],
  ])('refuses %s instead of overwriting it', async (_what, original) => {
    const root = await repoWith(original);
    await expect(bindProject(root, 'mine')).rejects.toThrow(/is not a JSON object.*fix or move it aside/);
    expect(await projectJson(root)).toBe(original);
  });

  it.each(['', '..', 'a/b', 'a\\b'])('refuses the unsafe slug %j and creates nothing', async (slug) => {
    const root = await repoWith();
    await expect(bindProject(root, slug)).rejects.toBeInstanceOf(ProjectSlugError);
    await expect(readdir(join(root, '.harness'))).rejects.toThrow(/ENOENT/);
  });

  it('the bound folder resolves to the project in the store', async () => {
    const root = await repoWith();
    const store = await tempDir();
    await bindProject(root, 'bound');
    const env = { MEMORY_VAULT_PATH: store, HOME: store, AGENTM_INSTALL_PREFIX: store };
    const project = await resolveProject({ cwd: root, host: { env, home: store } });
    expect(project.slug).toBe('bound');
    expect(project.projectLocator?.key).toBe('desk/projects/bound');
  });
});
