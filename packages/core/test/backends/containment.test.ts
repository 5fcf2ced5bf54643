import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceLocalBackend, PathEscapeError } from '../../src/backends.js';
import { setSkippedEntrySink } from '../../src/backends/skipped-entries.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function store() {
  const dir = await tempDir();
  const root = join(dir, 'store');
  const outside = join(dir, 'outside');
  await mkdir(join(root, 'memory', 'fix'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret'), 'SECRET');
  await writeFile(join(root, 'memory', 'fix', 'a.md'), 'inside');
  const warnings: string[] = [];
  setSkippedEntrySink((m) => warnings.push(m));
  return { root, outside, warnings, backend: new DeviceLocalBackend({ root }) };
}

afterEach(() => setSkippedEntrySink(undefined));

describe('filesystem backends keep reads inside the store', () => {
  it('a read through a link out of the store — in the name or a folder above it — is refused', async () => {
    const s = await store();
    await symlink(join(s.outside, 'secret'), join(s.root, 'memory', 'fix', 'id.md'));
    await symlink(s.outside, join(s.root, 'memory', 'out'));
    await expect(s.backend.read(s.backend.resolve('memory/fix/id.md'))).rejects.toBeInstanceOf(PathEscapeError);
    await expect(s.backend.read(s.backend.resolve('memory/out/secret'))).rejects.toBeInstanceOf(PathEscapeError);
    await expect(s.backend.info(s.backend.resolve('memory/fix/id.md'))).rejects.toBeInstanceOf(PathEscapeError);
  });

  it('links that stay inside the store are followed', async () => {
    const s = await store();
    await symlink(join(s.root, 'memory', 'fix', 'a.md'), join(s.root, 'memory', 'b.md'));
    await symlink(join(s.root, 'memory', 'fix'), join(s.root, 'memory', 'alias'));
    expect(await s.backend.read(s.backend.resolve('memory/b.md'))).toBe('inside');
    expect(await s.backend.read(s.backend.resolve('memory/alias/a.md'))).toBe('inside');
    expect((await s.backend.info(s.backend.resolve('memory/alias'))).isLink).toBe(true);
  });

  it('a folder replaced by a link out of the store after it was listed is not read through', async () => {
    const s = await store();
    await mkdir(join(s.root, 'memory', 'swap'));
    await writeFile(join(s.root, 'memory', 'swap', 'secret'), 'was inside');
    expect((await s.backend.list(s.backend.resolve('memory'))).map(String)).toContain('memory/swap');
    expect(await s.backend.read(s.backend.resolve('memory/swap/secret'))).toBe('was inside');
    await rm(join(s.root, 'memory', 'swap'), { recursive: true });
    await symlink(s.outside, join(s.root, 'memory', 'swap'));
    expect((await s.backend.list(s.backend.resolve('memory'))).map(String)).not.toContain('memory/swap');
    await expect(s.backend.read(s.backend.resolve('memory/swap/secret'))).rejects.toBeInstanceOf(PathEscapeError);
  });

  it('listings leave out links that lead outside and names the seam cannot express, reporting each once', async () => {
    const s = await store();
    await symlink(join(s.outside, 'secret'), join(s.root, 'memory', 'fix', 'id.md'));
    await writeFile(join(s.root, 'memory', 'fix', 'odd\\name.md'), 'x');
    const dir = s.backend.resolve('memory/fix');
    expect((await s.backend.list(dir)).map(String)).toEqual(['memory/fix/a.md']);
    expect((await s.backend.list(dir)).map(String)).toEqual(['memory/fix/a.md']);
    expect(s.warnings).toHaveLength(2);
    expect(s.warnings.find((w) => w.includes('id.md'))).toContain(`a symbolic link to ${join(s.outside, 'secret')}`);
    expect(s.warnings.find((w) => w.includes('odd\\name.md'))).toContain('cannot be a storage key');
  });
});
