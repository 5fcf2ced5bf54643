import { mkdir, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDirFor, withVaultLock } from '@agentm/core/write-protocol';
import { tempDir } from './helpers/temp.js';
import { FIXTURES, spawnFixture, spawnProcess } from './helpers/processes.js';

async function setup() {
  const dir = await tempDir();
  const root = join(dir, 'Vault', 'Agent');
  const lockRoot = join(dir, 'xdg', 'agentm', 'locks');
  await mkdir(root, { recursive: true });
  return { dir, root, lockRoot, lockDir: lockDirFor(root, lockRoot), env: { XDG_CACHE_HOME: join(dir, 'xdg') } };
}

/** Python agentm's vault_mutex (reference §2.12: take over once the mtime is older than `stale`), as a waiter. */
const pythonAcquire = (root: string, timeoutSeconds: number, env: NodeJS.ProcessEnv) =>
  spawnProcess('python3', [FIXTURES + 'agentm_vault_lock.py', 'acquire', root, String(timeoutSeconds)], env);

/** A lock left by a holder that crashed right after stamping its heartbeat `aheadMs` ahead of the clock. */
async function crashedLock(lockDir: string, aheadMs: number): Promise<void> {
  await mkdir(dirname(lockDir), { recursive: true });
  await mkdir(lockDir);
  const stamp = (Date.now() + aheadMs) / 1000;
  await utimes(lockDir, stamp, stamp);
}

describe('the heartbeat is stamped in real time (issue 10, item 5)', () => {
  it('right after AgentM takes the lock, its mtime is not ahead of the clock', async () => {
    const { root, lockRoot, lockDir } = await setup();
    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    const mtimeMs = (await stat(lockDir)).mtimeMs;
    expect(mtimeMs).toBeLessThanOrEqual(Date.now());
    holder.child.kill('SIGTERM');
    await holder.exited;
  });

  it('a holder SIGKILLed right after taking the lock is taken over within 10 s by a Python agentm waiter and by ours (stale 10 s, timeout 10 s)', async () => {
    const py = await setup();
    const ts = await setup();
    const holders = [py, ts].map((s) => spawnFixture('lock-holder.mjs', [s.root, s.lockRoot, '10000', 'forever']));
    await Promise.all(holders.map((h) => h.waitForLine(/^held /)));
    for (const h of holders) h.child.kill('SIGKILL');
    await Promise.all(holders.map((h) => h.exited));
    const [python, ours] = await Promise.all([
      pythonAcquire(py.root, 10, py.env).exited,
      withVaultLock(ts.root, async () => 'taken over', { lockRoot: ts.lockRoot, staleMs: 10_000, timeoutMs: 10_000 }),
    ]);
    expect(python.stdout.trim(), python.stdout + python.stderr).toBe('acquired');
    expect(ours).toBe('taken over');
  }, 60_000);
});

describe('a waiter arriving just after a crash takes the lock over (issue 11, item 7)', () => {
  it('with the default timeout, when the dead holder stamped its last heartbeat up to 1 s ahead', async () => {
    const { root, lockRoot, lockDir } = await setup();
    await crashedLock(lockDir, 900);
    await expect(withVaultLock(root, async () => 'taken over', { lockRoot })).resolves.toBe('taken over');
  }, 60_000);

  it('a heartbeat an hour in the future is taken over once it has stood unchanged for the stale window', async () => {
    const { root, lockRoot, lockDir } = await setup();
    await crashedLock(lockDir, 3_600_000);
    await expect(withVaultLock(root, async () => 'taken over', { lockRoot })).resolves.toBe('taken over');
  }, 60_000);

  it('a live holder whose heartbeats are stamped in the future is never taken over', async () => {
    const { root, lockRoot, lockDir } = await setup();
    await crashedLock(lockDir, 3_600_000);
    // The "holder" keeps beating (every 1 s, each stamp an hour ahead): the waiter must time out.
    const beat = setInterval(() => {
      const stamp = (Date.now() + 3_600_000) / 1000;
      void utimes(lockDir, stamp, stamp).catch(() => undefined);
    }, 1000);
    try {
      const error = await withVaultLock(root, async () => 'stolen', { lockRoot, staleMs: 3000, timeoutMs: 6000 }).catch(
        (e: unknown) => e,
      );
      expect((error as { code?: string }).code).toBe('ELOCKTIMEOUT');
    } finally {
      clearInterval(beat);
    }
  }, 60_000);
});
