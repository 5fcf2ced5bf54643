import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  authorizePersonalWrite,
  PersonalWriteRefusedError,
  type PersonalWriteAuthorization,
} from '../../src/backends/personal-write.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { BackendConfigError, PathEscapeError } from '../../src/backends/errors.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { tempDir } from '../../../../test/helpers/temp.js';

async function vault() {
  const dir = await tempDir();
  const personal = join(dir, 'Vault');
  const backend = new VaultBackend({
    root: join(personal, 'Agent'),
    lockRoot: join(dir, 'locks'),
    personalRoot: personal,
  });
  return { backend, personal, dir };
}

describe('writePersonal', () => {
  it('writes above the store root (the Obsidian vault) with an authorization, through lock + CAS', async () => {
    const { backend, personal } = await vault();
    const auth = authorizePersonalWrite('operator asked to file the meeting note');
    const loc = backend.resolve('Notes', 'meeting.md');
    await backend.writePersonal(loc, 'hi\r\n', auth, { expectHash: null });
    expect(await readFile(join(personal, 'Notes', 'meeting.md'), 'utf8')).toBe('hi\r\n');
    await expect(backend.writePersonal(loc, 'x', auth, { expectHash: contentHash('stale') })).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    await backend.writePersonal(loc, 'v2\n', auth, { expectHash: contentHash('hi\r\n') });
    expect(await readFile(join(personal, 'Notes', 'meeting.md'), 'utf8')).toBe('v2\n');
  });

  it('refuses a look-alike object literal, a missing authorization and an empty reason; nothing is written', async () => {
    const { backend, personal } = await vault();
    const loc = backend.resolve('x.md');
    const fake = { reason: 'trust me', issuedAt: new Date() } as PersonalWriteAuthorization;
    await expect(backend.writePersonal(loc, 'x', fake)).rejects.toBeInstanceOf(PersonalWriteRefusedError);
    await expect(
      backend.writePersonal(loc, 'x', undefined as unknown as PersonalWriteAuthorization),
    ).rejects.toBeInstanceOf(PersonalWriteRefusedError);
    await expect(backend.writePersonal(loc, 'x', { ...authorizePersonalWrite('copy') })).rejects.toBeInstanceOf(
      PersonalWriteRefusedError,
    );
    expect(() => authorizePersonalWrite('  ')).toThrow(PersonalWriteRefusedError);
    await expect(readFile(join(personal, 'x.md'))).rejects.toThrow();
  });

  it('cannot escape the personal root (.. is refused; a symlink out is refused)', async () => {
    const { backend, personal, dir } = await vault();
    const auth = authorizePersonalWrite('test');
    expect(() => backend.resolve('..', 'x.md')).toThrow(/not allowed/);
    await mkdir(join(dir, 'outside'));
    await mkdir(personal, { recursive: true });
    await symlink(join(dir, 'outside'), join(personal, 'link'));
    await expect(backend.writePersonal(backend.resolve('link', 'x.md'), 'x', auth)).rejects.toBeInstanceOf(
      PathEscapeError,
    );
  });

  it('refuses on a backend built without a personal root', async () => {
    const dir = await tempDir();
    const backend = new VaultBackend({ root: join(dir, 'Agent'), lockRoot: join(dir, 'locks') });
    await writeFile(join(dir, 'keep.md'), 'keep\n');
    await expect(
      backend.writePersonal(backend.resolve('keep.md'), 'x', authorizePersonalWrite('t')),
    ).rejects.toBeInstanceOf(BackendConfigError);
    expect(await readFile(join(dir, 'keep.md'), 'utf8')).toBe('keep\n');
  });
});
