import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeviceLocalBackend, deviceLocalRoot } from '../../src/backends/device-local.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { BackendConfigError, PathEscapeError } from '../../src/backends/errors.js';
import { Locator, NotFoundError } from '../../src/index.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function vaultIn(dir: string) {
  return new VaultBackend({ root: join(dir, 'Agent'), lockRoot: join(dir, 'locks') });
}

describe('device-local root', () => {
  it('is argument → AGENTM_DEVICE_LOCAL_ROOT → ~/.agentm/memory', () => {
    expect(deviceLocalRoot('/explicit', { AGENTM_DEVICE_LOCAL_ROOT: '/env' })).toBe('/explicit');
    expect(deviceLocalRoot(undefined, { AGENTM_DEVICE_LOCAL_ROOT: ' /env ' })).toBe('/env');
    expect(deviceLocalRoot(undefined, { AGENTM_DEVICE_LOCAL_ROOT: '' }, '/home/u')).toBe('/home/u/.agentm/memory');
    expect(deviceLocalRoot(undefined, {})).toBe(join(homedir(), '.agentm', 'memory'));
  });

  it('is created by the backend and advertises no capabilities', async () => {
    const root = join(await tempDir(), 'deep', 'store');
    const backend = new DeviceLocalBackend({ root });
    expect(backend.root).toBe(root);
    expect(await readdir(root)).toEqual([]);
    expect(Object.values(backend.capabilities).every((flag) => flag === false)).toBe(true);
    expect(backend.conflictStrategy).toBe('none');
  });
});

describe('vault backend', () => {
  it('advertises concurrent writers, conflict files and sync', async () => {
    const backend = await vaultIn(await tempDir());
    expect(backend.capabilities).toEqual({
      concurrentWriters: true,
      conflictFiles: true,
      encryption: false,
      sync: true,
    });
    expect(backend.conflictStrategy).toBe('whole-file');
  });

  it('refuses to be built without a root, naming the setting', () => {
    expect(() => new VaultBackend()).toThrow(BackendConfigError);
    expect(() => new VaultBackend({ root: ' ' })).toThrow(/vault_path/);
  });

  it('writes through a CAS: a stale expectation is refused and the file kept', async () => {
    const backend = await vaultIn(await tempDir());
    const loc = backend.resolve('desk', 'projects', 'x', '_harness', 'PLAN.md');
    await backend.write(loc, 'v1\n', { expectHash: null });
    const read = await backend.read(loc);
    await writeFile(join(backend.root, loc.key), 'edited in Obsidian\n');
    await expect(backend.write(loc, 'v2\n', { expectHash: contentHash(read) })).rejects.toThrow(
      /modified concurrently/,
    );
    expect(await backend.read(loc)).toBe('edited in Obsidian\n');
  });

  it('lets a caller hold the lock across several writes', async () => {
    const backend = await vaultIn(await tempDir());
    await backend.withLock(async () => {
      await backend.write(backend.resolve('a.md'), 'a\n');
      await backend.write(backend.resolve('b.md'), 'b\n');
    });
    expect((await backend.list(backend.resolve())).map(String)).toEqual(['a.md', 'b.md']);
  });
});

describe.each([
  ['device-local', (dir: string) => new DeviceLocalBackend({ root: join(dir, 'Agent') })],
  ['vault', vaultIn],
])('%s backend on a real folder', (_name, make) => {
  it('refuses a write that leaves the root through a symlinked folder', async () => {
    const dir = await tempDir();
    const backend = await make(dir);
    const outside = join(dir, 'outside');
    await mkdir(outside);
    await symlink(outside, join(backend.root, 'escape'));
    await expect(backend.write(backend.resolve('escape', 'note.md'), 'x')).rejects.toBeInstanceOf(PathEscapeError);
    await expect(backend.mkdir(backend.resolve('escape', 'sub'))).rejects.toBeInstanceOf(PathEscapeError);
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a write onto a symlinked file that points outside', async () => {
    const dir = await tempDir();
    const backend = await make(dir);
    await writeFile(join(dir, 'secret.txt'), 'keep me');
    await symlink(join(dir, 'secret.txt'), join(backend.root, 'link.md'));
    await expect(backend.write(backend.resolve('link.md'), 'overwrite')).rejects.toThrow(/outside the store root/);
    expect(await readFile(join(dir, 'secret.txt'), 'utf8')).toBe('keep me');
  });

  it('allows symlinks that stay inside the root', async () => {
    const dir = await tempDir();
    const backend = await make(dir);
    await mkdir(join(backend.root, 'real'));
    await symlink(join(backend.root, 'real'), join(backend.root, 'alias'));
    await backend.write(backend.resolve('alias', 'n.md'), 'inside\n');
    expect(await readFile(join(backend.root, 'real', 'n.md'), 'utf8')).toBe('inside\n');
  });

  it('never lists temp files (ours or agentm’s)', async () => {
    const dir = await tempDir();
    const backend = await make(dir);
    await backend.write(backend.resolve('n.md'), 'x');
    await writeFile(join(backend.root, '.n.md.123.0123456789abcdef.tmp'), 'partial');
    await writeFile(join(backend.root, `n.md.123.${'f'.repeat(32)}.tmp`), 'partial');
    expect((await backend.list(Locator.root)).map(String)).toEqual(['n.md']);
  });

  it('reports a directory read as not found, not as a crash', async () => {
    const backend = await make(await tempDir());
    await backend.mkdir(backend.resolve('d'));
    await expect(backend.read(backend.resolve('d'))).rejects.toBeInstanceOf(NotFoundError);
  });
});
