import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { casWriteFile, lockedCasWrite } from '../../src/write-protocol/cas-write.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { tempDir } from '../../../../test/helpers/temp.js';

describe('CAS replace-write', () => {
  it('a foreign write between read and rename raises and keeps the foreign bytes', async () => {
    const dir = await tempDir();
    const target = join(dir, 'PLAN.md');
    await writeFile(target, 'ours v1\n');
    const error = await lockedCasWrite(dir, target, 'ours v2\n', {
      expectHash: contentHash('ours v1\n'),
      lock: { lockRoot: join(dir, 'locks') },
      beforeRecheck: () => writeFile(target, 'foreign bytes from a sync client\n'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentModificationError);
    const cme = error as ConcurrentModificationError;
    expect(cme.message).toContain(target);
    expect(cme.message).toContain(contentHash('ours v1\n').slice(0, 12));
    expect(cme.message).toContain(contentHash('foreign bytes from a sync client\n').slice(0, 12));
    expect(await readFile(target, 'utf8')).toBe('foreign bytes from a sync client\n');
    expect((await readdir(dir)).filter((n) => n !== 'locks')).toEqual(['PLAN.md']);
  });

  it('a stale expected hash is refused before anything is written', async () => {
    const dir = await tempDir();
    const target = join(dir, 'note.md');
    await writeFile(target, 'current\n');
    await expect(casWriteFile(target, 'mine\n', { expectHash: contentHash('what I read earlier\n') })).rejects.toThrow(
      /modified since it was read/,
    );
    expect(await readFile(target, 'utf8')).toBe('current\n');
  });

  it('"expect absent" fails when the file exists or appears during the write', async () => {
    const dir = await tempDir();
    const target = join(dir, 'new.md');
    await writeFile(target, 'already here\n');
    await expect(casWriteFile(target, 'mine\n', { expectHash: null })).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    await rm(target);
    await expect(
      casWriteFile(target, 'mine\n', { expectHash: null, beforeRecheck: () => writeFile(target, 'appeared\n') }),
    ).rejects.toThrow(/expected absent/);
    expect(await readFile(target, 'utf8')).toBe('appeared\n');
  });

  it('a file deleted since it was read is reported, not recreated', async () => {
    const dir = await tempDir();
    const target = join(dir, 'gone.md');
    await expect(casWriteFile(target, 'mine\n', { expectHash: contentHash('was here\n') })).rejects.toThrow(
      /deleted since it was read/,
    );
    await expect(readFile(target)).rejects.toThrow();
  });

  it('with no expectation still refuses a change inside its own read-to-rename window', async () => {
    const dir = await tempDir();
    const target = join(dir, 'note.md');
    await writeFile(target, 'a\n');
    await expect(casWriteFile(target, 'b\n', { beforeRecheck: () => writeFile(target, 'c\n') })).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    expect(await readFile(target, 'utf8')).toBe('c\n');
  });
});
