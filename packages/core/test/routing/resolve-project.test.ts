import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { builtinBackends } from '../../src/backends/builtins.js';
import { CapabilityMismatchError } from '../../src/selection/errors.js';
import { probeProjectLocator, resolveProject } from '../../src/routing/resolve-project.js';
import { StorageSelectionError } from '../../src/index.js';
import { type SelectedBackend } from '../../src/selection/select-backend.js';
import { projectsSpace } from '../../src/routing/resolve-project.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function repo(slug?: string): Promise<string> {
  const root = await tempDir();
  if (slug) {
    await mkdir(join(root, '.harness'));
    await writeFile(join(root, '.harness', 'project.json'), JSON.stringify({ vault_project: slug }));
  }
  return root;
}

const noGit = async () => undefined;

describe('resolveProject', () => {
  it('without a slug selects no backend at all', async () => {
    let calls = 0;
    const cwd = await repo();
    const res = await resolveProject({ cwd, gitRemote: noGit, select: async () => (calls++, {}) as SelectedBackend });
    expect(res).toMatchObject({
      slug: undefined,
      projectLocator: undefined,
      backend: undefined,
      layout: 'none',
      projectRoot: cwd,
    });
    expect(calls).toBe(0);
  });

  it('probes desk/projects → projects → personal-projects, defaulting to desk/projects', async () => {
    const backend = new MemoryBackend();
    expect(await probeProjectLocator(backend, 'p')).toMatchObject({ layout: 'new' });
    expect((await probeProjectLocator(backend, 'p')).locator.key).toBe('desk/projects/p');
    await backend.mkdir(backend.resolve('personal-projects', 'p'));
    expect((await probeProjectLocator(backend, 'p')).locator.key).toBe('personal-projects/p');
    await backend.mkdir(backend.resolve('projects', 'p'));
    expect(await probeProjectLocator(backend, 'p')).toMatchObject({ layout: 'intermediate' });
    await backend.mkdir(backend.resolve('desk', 'projects', 'p'));
    expect((await probeProjectLocator(backend, 'p')).locator.key).toBe('desk/projects/p');
    expect((await projectsSpace(backend)).key).toBe('desk/projects');
  });

  it('a configured projects space is probed first', async () => {
    const backend = new MemoryBackend();
    const config = { 'plugins.obsidian-vault.spaces': { projects: 'work' } };
    expect((await probeProjectLocator(backend, 'p', config)).locator.key).toBe('work/p');
    await backend.mkdir(backend.resolve('projects', 'p'));
    expect((await probeProjectLocator(backend, 'p', config)).locator.key).toBe('projects/p');
  });

  it('resolves through the selected backend and returns Locators, not paths', async () => {
    const backend = new MemoryBackend({ capabilities: { sync: true } });
    const cwd = await repo('agentm');
    const selection = {
      backend,
      protocol: 'mem',
      origin: 'test',
      root: undefined,
      choice: { config: {} },
    } as unknown as SelectedBackend;
    const res = await resolveProject({ cwd, gitRemote: noGit, select: async () => selection });
    expect(res.slug).toBe('agentm');
    expect(res.projectLocator?.key).toBe('desk/projects/agentm');
    expect(res.backend).toBe(backend);
    expect(res.layout).toBe('new');
  });

  it('propagates selection errors instead of degrading (split-brain guard), creating nothing', async () => {
    const home = await tempDir();
    const cwd = await repo('agentm');
    const host = {
      env: {
        AGENTM_INSTALL_PREFIX: join(home, 'p'),
        MEMORY_VAULT_PATH: join(home, 'unmounted'),
        AGENTM_DEVICE_LOCAL_ROOT: join(home, 'device'),
      },
      home,
    };
    await expect(resolveProject({ cwd, host, gitRemote: noGit })).rejects.toBeInstanceOf(StorageSelectionError);
    expect(await readdir(home)).toEqual([]);
  });

  it("degrades to layout 'none' when a registered backend's constructor throws anything (session start goes on)", async () => {
    const home = await tempDir();
    const cwd = await repo('agentm');
    await mkdir(join(home, 'p'));
    await writeFile(join(home, 'p', '.agentm-config.json'), JSON.stringify({ 'storage.backend': 'brittle' }));
    const host = { env: { AGENTM_INSTALL_PREFIX: join(home, 'p') }, home };
    for (const thrown of [
      new Error('plugin bug: cannot open its database'),
      new RangeError('bad offset'),
      'a string',
    ]) {
      class Brittle extends MemoryBackend {
        constructor() {
          super();
          throw thrown;
        }
      }
      const registry = builtinBackends();
      registry.register('brittle', Brittle);
      const res = await resolveProject({ cwd, host, registry, gitRemote: noGit });
      expect(res).toMatchObject({
        slug: 'agentm',
        projectLocator: undefined,
        backend: undefined,
        selection: undefined,
        layout: 'none',
        projectRoot: cwd,
      });
      expect(res.backendError).toBe(thrown); // kept, so a caller can say why memory is absent
    }
  });

  it('a capability mismatch still propagates (a misconfiguration is loud, not degraded)', async () => {
    const home = await tempDir();
    const cwd = await repo('agentm');
    const host = { env: { AGENTM_INSTALL_PREFIX: join(home, 'p'), AGENTM_DEVICE_LOCAL_ROOT: join(home, 'd') }, home };
    await expect(resolveProject({ cwd, host, gitRemote: noGit, required: { sync: true } })).rejects.toBeInstanceOf(
      CapabilityMismatchError,
    );
  });
});
