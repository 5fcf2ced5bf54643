import { readFile, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { listRepos, registerRepo, type Locator, type WriteOptions } from '../../src/index.js';
import { RegistryArgumentError, RegistryFormatError } from '../../src/routing/errors.js';
import { unregisterRepo } from '../../src/routing/repo-registry.js';
import { runRoutingConformance } from '../../src/routing/conformance.js';
import { normalizeRepoPath, readRegistry } from '../../src/routing/repo-registry.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function vault(): Promise<VaultBackend> {
  const dir = await tempDir();
  return new VaultBackend({ root: join(dir, 'Vault', 'Agent'), lockRoot: join(dir, 'locks') });
}

describe('repo registry format', () => {
  it('is DESIGN §12 byte for byte: 2-space JSON, \\uXXXX escapes, trailing newline, normalized root_path', async () => {
    const backend = await vault();
    await registerRepo(backend, 'agentm', '/srv//agentm/./', '/srv/agentm/wiki/');
    await registerRepo(backend, 'café', '/home/josé/café');
    expect(await readFile(join(backend.root, '_meta', 'repos.json'), 'utf8')).toBe(
      '{\n  "version": 1,\n  "repos": [\n    {\n      "slug": "agentm",\n      "root_path": "/srv/agentm",\n      "wiki_path": "/srv/agentm/wiki"\n    },\n' +
        '    {\n      "slug": "caf\\u00e9",\n      "root_path": "/home/jos\\u00e9/caf\\u00e9"\n    }\n  ]\n}\n',
    );
  });

  it.each([
    ['/a//b/./c/', '/a/b/c'],
    ['C:\\Users\\me\\repo\\', 'C:/Users/me/repo'],
    ['//server/share/x', '//server/share/x'],
    ['///x', '/x'],
    ['a/../b', 'a/../b'],
    ['./', '.'],
  ])('normalizes %j → %j', (path, normalized) => {
    expect(normalizeRepoPath(path)).toBe(normalized);
  });
});

describe('register / unregister / list', () => {
  it('upserts: a known slug keeps its position and fields not given; a new slug is appended', async () => {
    const backend = new MemoryBackend();
    await registerRepo(backend, 'a', '/a', '/a/wiki');
    await registerRepo(backend, 'b', '/b');
    const after = await registerRepo(backend, 'a', '/a2');
    expect(after.repos).toEqual([
      { slug: 'a', root_path: '/a2', wiki_path: '/a/wiki' },
      { slug: 'b', root_path: '/b' },
    ]);
    expect(await listRepos(backend)).toEqual(after.repos);
  });

  it('keeps unknown keys and their order from the file', async () => {
    const backend = new MemoryBackend();
    await backend.write(
      backend.resolve('_meta', 'repos.json'),
      '{"repos": [{"slug": "a", "extra": 1, "root_path": "/a"}], "version": 1, "note": "x"}',
    );
    await registerRepo(backend, 'a', '/a', '/w');
    expect(await backend.read(backend.resolve('_meta', 'repos.json'))).toBe(
      '{\n  "repos": [\n    {\n      "slug": "a",\n      "extra": 1,\n      "root_path": "/a",\n      "wiki_path": "/w"\n    }\n  ],\n  "version": 1,\n  "note": "x"\n}\n',
    );
  });

  it('an absent registry reads empty and is not created; unregistering an absent slug writes nothing', async () => {
    const backend = await vault();
    expect(await readRegistry(backend)).toEqual({ version: 1, repos: [] });
    expect(await unregisterRepo(backend, 'ghost')).toBe(false);
    await expect(stat(join(backend.root, '_meta'))).rejects.toThrow();
    await registerRepo(backend, 'a', '/a');
    // An hour in the past, in whole seconds (a millisecond stamp can come back as x.999 from the
    // filesystem's nanoseconds): any rewrite would stamp it now, whatever the clock's resolution.
    const past = new Date(Math.floor((Date.now() - 3_600_000) / 1000) * 1000);
    await utimes(join(backend.root, '_meta', 'repos.json'), past, past);
    expect(await unregisterRepo(backend, 'ghost')).toBe(false);
    await registerRepo(backend, 'a', '/a');
    expect((await stat(join(backend.root, '_meta', 'repos.json'))).mtimeMs).toBe(past.getTime());
    expect(await unregisterRepo(backend, 'a')).toBe(true);
    expect(await listRepos(backend)).toEqual([]);
  });

  it('refuses empty slugs and a malformed registry (never auto-repaired)', async () => {
    const backend = await vault();
    await expect(registerRepo(backend, '', '/x')).rejects.toBeInstanceOf(RegistryArgumentError);
    await expect(unregisterRepo(backend, ' ')).rejects.toBeInstanceOf(RegistryArgumentError);
    await backend.write(backend.resolve('_meta', 'repos.json'), '{"repos": ');
    await expect(registerRepo(backend, 'a', '/a')).rejects.toBeInstanceOf(RegistryFormatError);
    expect(await backend.read(backend.resolve('_meta', 'repos.json'))).toBe('{"repos": ');
  });
});

/** A backend where another writer changes the registry between our read and our write, `times` times. */
class RacedBackend extends MemoryBackend {
  raced = 0;
  constructor(private readonly times: number) {
    super();
  }
  override async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    if (locator.key === '_meta/repos.json' && this.raced < this.times) {
      this.raced++;
      const current = (await this.exists(locator)) ? JSON.parse(await this.read(locator)) : { version: 1, repos: [] };
      current.repos.push({ slug: `foreign-${this.raced}`, root_path: `/f${this.raced}` });
      await super.write(locator, JSON.stringify(current));
    }
    return super.write(locator, content, options);
  }
}

describe('registry compare-and-swap', () => {
  it('retries from a fresh read when another writer lands first, losing no registration', async () => {
    const backend = new RacedBackend(4);
    await registerRepo(backend, 'mine', '/mine');
    expect((await listRepos(backend)).map((r) => r.slug)).toEqual([
      'foreign-1',
      'foreign-2',
      'foreign-3',
      'foreign-4',
      'mine',
    ]);
  });

  it("gives up after 5 lost attempts with ConcurrentModificationError, leaving the other writer's bytes", async () => {
    const backend = new RacedBackend(5);
    const error = await registerRepo(backend, 'mine', '/mine').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentModificationError);
    expect((error as Error).message).toMatch(/registry CAS lost 5 consecutive times/);
    expect((await listRepos(backend)).map((r) => r.slug)).toEqual([
      'foreign-1',
      'foreign-2',
      'foreign-3',
      'foreign-4',
      'foreign-5',
    ]);
  });
});

describe('routing conformance (agentm routing_repo_registry)', () => {
  it.each([
    ['device-local', async () => new DeviceLocalBackend({ root: join(await tempDir(), 'store') })],
    ['vault', vault],
    ['in-memory double', () => new MemoryBackend()],
  ])('%s passes', async (_name, make) => {
    expect(await runRoutingConformance(make)).toEqual({ routing: ['routing_repo_registry'] });
  });

  it('fails a backend that loses writes, naming the check', async () => {
    class Forgetful extends MemoryBackend {
      override async write(locator: Locator): Promise<Locator> {
        return locator;
      }
    }
    await expect(runRoutingConformance(() => new Forgetful())).rejects.toThrow(
      /routing_repo_registry.*registerRepo did not return|listRepos does not contain/,
    );
  });
});
