import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWrite, isTempName, tempNameFor } from '../../src/write-protocol/atomic-write.js';
import { contentHash, shortHash } from '../../src/write-protocol/content-hash.js';
import { tempDir } from '../../../../test/helpers/temp.js';

describe('atomicWrite', () => {
  it('writes exact bytes, creating parents, and leaves no temp behind', async () => {
    const dir = await tempDir();
    const target = join(dir, 'a', 'b', 'note.md');
    const text = 'mixed\r\nlf\nbare-cr\rtail café 🦗';
    await atomicWrite(target, text);
    expect((await readFile(target)).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['note.md']);
  });

  it("returns the path it wrote, as agentm's atomic_write does", async () => {
    const dir = await tempDir();
    const target = join(dir, 'sub', 'note.md');
    expect(await atomicWrite(target, 'x')).toBe(target);
    expect(await atomicWrite(target, Buffer.from('y'), { fsync: false })).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('y');
  });

  it('creates files with 0666 minus the umask, never 0600', async () => {
    const dir = await tempDir();
    const target = join(dir, 'note.md');
    await atomicWrite(target, 'x');
    const mode = (await stat(target)).mode & 0o777;
    expect(mode).toBe(0o666 & ~process.umask());
  });

  it('replaces an existing file whole', async () => {
    const dir = await tempDir();
    const target = join(dir, 'note.md');
    await writeFile(target, 'old content that is longer than the new one');
    await atomicWrite(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
  });

  it('on a failure before the rename keeps the old bytes and removes the temp', async () => {
    const dir = await tempDir();
    const target = join(dir, 'note.md');
    await writeFile(target, 'old');
    await expect(
      atomicWrite(target, 'new', {
        beforeRename: () => {
          throw new Error('refused at the last moment');
        },
      }),
    ).rejects.toThrow('refused at the last moment');
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['note.md']);
  });

  it('fails without a trace when the target is a directory', async () => {
    const dir = await tempDir();
    await atomicWrite(join(dir, 'sub', 'x.md'), 'x');
    await expect(atomicWrite(join(dir, 'sub'), 'y')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['sub']);
  });
});

describe('temp names', () => {
  it('are dot-prefixed, per writer, and recognized as temps', () => {
    const a = tempNameFor('PLAN.md');
    const b = tempNameFor('PLAN.md');
    expect(a).not.toBe(b);
    expect(a.startsWith('.PLAN.md.')).toBe(true);
    expect(isTempName(a)).toBe(true);
    expect(tempNameFor('x'.repeat(300)).length).toBeLessThan(255);
  });

  it("recognizes agentm's Python temp names and nothing ordinary", () => {
    expect(isTempName(`PLAN.md.4242.${'a'.repeat(32)}.tmp`)).toBe(true);
    expect(isTempName('PLAN.md')).toBe(false);
    expect(isTempName('.obsidian')).toBe(false);
    expect(isTempName('notes.tmp')).toBe(false);
  });
});

describe('contentHash', () => {
  it('is sha256 hex of the UTF-8 bytes; strings and their bytes hash equal', () => {
    expect(contentHash('hello')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(contentHash(Buffer.from('café', 'utf8'))).toBe(contentHash('café'));
    expect(shortHash(contentHash('hello'))).toBe('2cf24dba5fb0');
  });
});
