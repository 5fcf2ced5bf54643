import { createHash } from 'node:crypto';
import { mkdir, readdir, realpath, symlink, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLockRoot, inspectLock, lockDirFor, withVaultLock } from '../../src/write-protocol/vault-lock.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('lock directory (agentm formula)', () => {
  it('is <XDG_CACHE_HOME>/agentm/locks/<sha256(realpath(root))>/lock, and ~/.cache without XDG', async () => {
    expect(defaultLockRoot({ XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toBe('/x/cache/agentm/locks');
    expect(defaultLockRoot({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/agentm/locks');
    expect(defaultLockRoot({}, '/home/u')).toBe('/home/u/.cache/agentm/locks');
    expect(defaultLockRoot({})).toBe(join(homedir(), '.cache', 'agentm', 'locks'));

    const dir = await tempDir();
    const vault = join(dir, 'Vault');
    await mkdir(join(vault, 'Agent'), { recursive: true });
    const alias = join(dir, 'alias');
    await symlink(vault, alias);
    const real = await realpath(join(vault, 'Agent'));
    const expected = join('/x/cache/agentm/locks', sha256(real), 'lock');
    expect(lockDirFor(join(vault, 'Agent'), '/x/cache/agentm/locks')).toBe(expected);
    // A symlink alias of the same memory root shares the lock.
    expect(lockDirFor(join(alias, 'Agent'), '/x/cache/agentm/locks')).toBe(expected);
    // A root that does not exist yet resolves its existing prefix, like os.path.realpath.
    expect(lockDirFor(join(alias, 'New'), '/l')).toBe(join('/l', sha256(join(await realpath(vault), 'New')), 'lock'));
  });
});

describe('withVaultLock in one process', () => {
  it('creates the lock directory while held and removes only it afterwards', async () => {
    const dir = await tempDir();
    const lockRoot = join(dir, 'locks');
    const vault = join(dir, 'vault');
    await mkdir(vault);
    const lockDir = lockDirFor(vault, lockRoot);
    await withVaultLock(
      vault,
      async (hold) => {
        expect(hold.lockDir).toBe(lockDir);
        expect((await stat(lockDir)).isDirectory()).toBe(true);
        expect((await inspectLock(vault, { lockRoot })).heldByThisProcess).toBe(true);
      },
      { lockRoot },
    );
    await expect(stat(lockDir)).rejects.toThrow();
    expect(await readdir(join(lockDir, '..'))).toEqual([]);
    expect((await inspectLock(vault, { lockRoot })).present).toBe(false);
  });

  it('is re-entrant within one call chain (a nested acquisition runs at once)', async () => {
    const dir = await tempDir();
    const opts = { lockRoot: join(dir, 'locks'), timeoutMs: 500 };
    const result = await withVaultLock(
      dir,
      () => withVaultLock(dir, () => withVaultLock(dir, async () => 'deep', opts), opts),
      opts,
    );
    expect(result).toBe('deep');
  });

  it('serializes independent callers of one process instead of letting them overlap', async () => {
    const dir = await tempDir();
    const opts = { lockRoot: join(dir, 'locks') };
    let inside = 0;
    let maxInside = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withVaultLock(
          dir,
          async () => {
            inside++;
            maxInside = Math.max(maxInside, inside);
            await new Promise((r) => setTimeout(r, 2));
            order.push(i);
            inside--;
          },
          opts,
        ),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toHaveLength(20);
  });

  it('releases the lock when the holder throws, and rethrows', async () => {
    const dir = await tempDir();
    const opts = { lockRoot: join(dir, 'locks') };
    await expect(
      withVaultLock(
        dir,
        async () => {
          throw new Error('boom');
        },
        opts,
      ),
    ).rejects.toThrow('boom');
    await expect(withVaultLock(dir, async () => 'again', { ...opts, timeoutMs: 200 })).resolves.toBe('again');
  });

  it('times out a queued caller with LockTimeout naming the lock, the timeout and the heartbeat age', async () => {
    const dir = await tempDir();
    const lockRoot = join(dir, 'locks');
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const holding = withVaultLock(
      dir,
      () =>
        new Promise<void>((r) => {
          release = r;
          entered();
        }),
      { lockRoot },
    );
    await inside; // the holder has the lock
    const error = await withVaultLock(dir, async () => 'never', { lockRoot, timeoutMs: 150 }).catch((e: Error) => e);
    release();
    await holding;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('LockTimeout');
    expect((error as Error).message).toContain(lockDirFor(dir, lockRoot));
    expect((error as Error).message).toMatch(/within 0\.15 s/);
    expect((error as Error).message).toMatch(/last heartbeat \d+\.\d\d s ago/);
  });
});
